import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { signInDashboard } from '../bench/bench-env';
import { wallClockFormatter } from '../lib/csv';
import { unitsText } from '../lib/money-text';
import { paymentNet, paymentNetSql, payoutNet, payoutNetSql } from '../lib/dashboard/net-amount';
import { nextDay, wallClock } from '../lib/time-zone';
import { payments, payouts } from '../lib/db/schema';
import { seedFinanceBusiness, type FinanceBusiness } from './finance-fixture';
import { adminClient, testDb } from './helpers';
import { parseCsv } from './parse-csv';

const ZONE = 'America/New_York';
const FORMULA = '=HYPERLINK("http://evil.test","pay")';

/** "123.45" or "-0.05" as minor units, by the digits alone: no float ever touches the amount. */
const minorOf = (units: string) => {
  expect(units).toMatch(/^-?\d+\.\d\d$/);
  return Number(units.replace('.', ''));
};

let fin: FinanceBusiness;
const cookies = {} as Record<'owner' | 'operator' | 'finance' | 'support', string>;

async function get(path: string, cookie = cookies.finance) {
  const res = await fetch(`${inject('baseUrl')}${path}`, { headers: { cookie } });
  return { status: res.status, headers: res.headers, text: await res.text() };
}
const csv = async (path: string, cookie?: string) => {
  const res = await get(path, cookie);
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  return { ...res, header: res.text.slice(0, res.text.indexOf('\r\n')).split(','), rows: parseCsv(res.text) };
};

beforeAll(async () => {
  fin = await seedFinanceBusiness('Exports');
  const db = testDb();
  await db.execute(sql`UPDATE businesses SET time_zone = ${ZONE} WHERE id = ${fin.biz.id}`);
  // A payee name a spreadsheet would run as a formula, as an API caller may send it.
  const formula = await fin.biz.test.post('/api/v1/card/payouts', {
    card_number: fin.cards.main,
    amount: 1_500,
    bank_slug: 'cbe',
    account_number: '1000777666123',
    account_name: FORMULA,
  });
  expect(formula.status).toBe(200);
  // One payout and one payment in live mode: the test-mode export must never show them.
  await db.execute(sql`
    INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference, actor_type, source_card_number)
    VALUES (${fin.biz.id}, 'live', 'card_to_card', 'success', 'ETB', 777, 7, 'sender', ${`po_live_${randomUUID()}`}, 'system', '4000000000000002')`);
  await db.execute(sql`
    INSERT INTO payments (business_id, mode, type, status, link_reference, currency, amount, service_fee, card_id, card_number, actor_type)
    VALUES (${fin.biz.id}, 'live', 'hosted', 'success', ${`pl_live_${randomUUID()}`}, 'ETB', 888, 13, 0, '4000000000000002', 'system')`);
  for (const role of ['owner', 'operator', 'finance', 'support'] as const) {
    const email = `${role}-${fin.biz.id}-${randomUUID()}@example.com`;
    const res = await adminClient().post(`/api/admin/businesses/${fin.biz.id}/users`, { email, password: 'a-long-password', role });
    expect(res.status).toBe(201);
    cookies[role] = await signInDashboard(inject('baseUrl'), email, 'a-long-password');
  }
});

/** The business's rows of a mode, straight from the tables. */
async function payoutRows(mode: 'test' | 'live') {
  return testDb().execute<{
    reference: string;
    amount: number;
    fee: number;
    net: number;
    currency: string;
    created_at: Date;
    transaction_id: number | null;
  }>(sql`
    SELECT reference, amount::float8 AS amount, service_fee::float8 AS fee, ${payoutNetSql()}::float8 AS net, currency, created_at, transaction_id
    FROM ${payouts} WHERE business_id = ${fin.biz.id} AND mode = ${mode}`);
}
async function paymentRows(mode: 'test' | 'live') {
  return testDb().execute<{ reference: string; amount: number; fee: number; net: number; status: string; currency: string; transaction_id: number | null }>(sql`
    SELECT link_reference AS reference, amount::float8 AS amount, service_fee::float8 AS fee, ${paymentNetSql()}::float8 AS net, status, currency, transaction_id
    FROM ${payments} WHERE business_id = ${fin.biz.id} AND mode = ${mode}`);
}

describe('payouts export', () => {
  it('holds exactly the business and mode payouts, amounts in units equal to minor / 100, net by the shared rule', async () => {
    const file = await csv('/payouts/export');
    expect(file.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="payouts-test-\d{4}-\d\d-\d\d\.csv"$/);
    expect(file.header).toEqual(
      expect.arrayContaining(['amount', 'fee', 'net', 'amount_minor', 'fee_minor', 'net_minor', 'failure_reason', `created_at (${ZONE})`]),
    );
    const db = (await payoutRows('test')).rows;
    expect(file.rows.map((r) => r.reference).sort()).toEqual(db.map((r) => r.reference).sort());
    const refs = fin.references;
    const listed = new Set(file.rows.map((r) => r.reference));
    for (const ref of [refs.topupSettled, refs.topupReversed, refs.cardToCard, refs.bankSettled, refs.bankFailed, refs.bankPending, refs.b2bSent]) {
      expect(listed.has(ref), ref).toBe(true);
    }
    // The B2B payout the partner sent is the partner's payout, not this business's.
    expect(listed.has(refs.b2bReceived)).toBe(false);
    const byRef = new Map(db.map((r) => [r.reference, r]));
    for (const row of file.rows) {
      const d = byRef.get(row.reference)!;
      expect([Number(row.amount_minor), Number(row.fee_minor), Number(row.net_minor)]).toEqual([d.amount, d.fee, d.net]);
      expect([minorOf(row.amount), minorOf(row.fee), minorOf(row.net)]).toEqual([d.amount, d.fee, d.net]);
      expect(row.net).toBe(unitsText(payoutNet({ payoutType: row.payout_type, amount: d.amount, serviceFee: d.fee, chargePayer: row.charge_payer })));
      expect(row[`created_at (${ZONE})`]).toBe(wallClock(ZONE, new Date(d.created_at)));
      expect(row.created_at_utc).toBe(new Date(d.created_at).toISOString());
    }
    // The wallet payout the customer pays for: the fee is added to what leaves the card.
    const failed = file.rows.find((r) => r.reference === refs.bankFailed)!;
    expect([failed.status, failed.charge_payer, minorOf(failed.net)]).toEqual(['failed', 'customer', minorOf(failed.amount) + minorOf(failed.fee)]);
    expect(failed.failure_reason).not.toBe('');
  });

  it('net is what left the paying account in the ledger, row by row and in sum per currency', async () => {
    const file = await csv('/payouts/export');
    const debits = await testDb().execute<{ reference: string; currency: string; debit: number }>(sql`
      SELECT p.reference, p.currency, -sum(e.amount)::float8 AS debit
      FROM payouts p JOIN ledger_entries e ON e.transaction_id = p.transaction_id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE p.business_id = ${fin.biz.id} AND p.mode = 'test' AND e.amount < 0 AND a.kind IN ('card', 'business') AND a.business_id = ${fin.biz.id}
      GROUP BY p.reference, p.currency`);
    expect(debits.rows).toHaveLength(file.rows.length);
    const ledger = new Map(debits.rows.map((r) => [r.reference, r.debit]));
    for (const row of file.rows) expect(minorOf(row.net), row.reference).toBe(ledger.get(row.reference));
    for (const currency of ['ETB', 'USD']) {
      const csvSum = file.rows.filter((r) => r.currency === currency).reduce((s, r) => s + minorOf(r.net), 0);
      const ledgerSum = debits.rows.filter((r) => r.currency === currency).reduce((s, r) => s + r.debit, 0);
      expect(csvSum, currency).toBe(ledgerSum);
      expect(csvSum, currency).toBeGreaterThan(0);
    }
  });

  it('applies the page filters: type, status, search and the business days', async () => {
    const refs = fin.references;
    const only = async (query: string) => (await csv(`/payouts/export?${query}`)).rows.map((r) => r.reference).sort();
    expect(await only('type=bank&status=failed')).toEqual([refs.bankFailed]);
    expect(await only('type=topup&status=failed')).toEqual([refs.topupReversed]);
    expect(await only(`q=${refs.b2bSent}`)).toEqual([refs.b2bSent]);
    expect((await only('type=topup')).length).toBe(4);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
    const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    expect(await only(`from=${nextDay(today)}`)).toEqual([]);
    expect((await only(`from=${yesterday}&to=${today}`)).length).toBe((await payoutRows('test')).rows.length);
    // An unknown filter value is dropped, as the page drops it.
    expect((await only('type=nonsense')).length).toBe((await payoutRows('test')).rows.length);
  });

  it('defuses a payee name a spreadsheet would run as a formula', async () => {
    const file = await csv('/payouts/export?type=bank');
    expect(file.rows.map((r) => r.account_name)).toContain(`'${FORMULA}`);
    expect(file.text).not.toMatch(/(^|,)"?=HYPERLINK/m);
  });

  it('in live mode holds the live rows only', async () => {
    const live = `${cookies.finance}; gc_mode=live`;
    const file = await csv('/payouts/export', live);
    expect(file.headers.get('content-disposition')).toMatch(/payouts-live-/);
    expect(file.rows.map((r) => r.reference)).toEqual((await payoutRows('live')).rows.map((r) => r.reference));
    expect(file.rows.map((r) => [r.amount, r.fee, r.net])).toEqual([['7.77', '0.07', '7.84']]);
  });
});

describe('payments export', () => {
  it('holds exactly the business and mode payments; net is what the card received and fee what fee revenue got, in sum as in the ledger', async () => {
    const file = await csv('/payments/export');
    expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="payments-test-/);
    const db = (await paymentRows('test')).rows;
    expect(file.rows.map((r) => r.reference).sort()).toEqual(db.map((r) => r.reference).sort());
    expect(file.rows.map((r) => r.reference)).toEqual(
      expect.arrayContaining([fin.references.paymentHosted, fin.references.paymentWallet, fin.references.paymentFailed]),
    );
    const byRef = new Map(db.map((r) => [r.reference, r]));
    for (const row of file.rows) {
      const d = byRef.get(row.reference)!;
      expect([minorOf(row.amount), minorOf(row.fee), minorOf(row.net)]).toEqual([d.amount, d.fee, d.net]);
      expect([Number(row.amount_minor), Number(row.fee_minor), Number(row.net_minor)]).toEqual([d.amount, d.fee, paymentNet(d)]);
    }
    const ledger = await testDb().execute<{ reference: string; received: number; fee: number }>(sql`
      SELECT p.link_reference AS reference,
             sum(e.amount) FILTER (WHERE a.kind IN ('card', 'business') AND a.business_id = ${fin.biz.id})::float8 AS received,
             coalesce(sum(e.amount) FILTER (WHERE a.kind = 'fee_revenue'), 0)::float8 AS fee
      FROM payments p JOIN ledger_entries e ON e.transaction_id = p.transaction_id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE p.business_id = ${fin.biz.id} AND p.mode = 'test' GROUP BY p.link_reference`);
    const paid = file.rows.filter((r) => r.status === 'success');
    expect(paid.map((r) => r.reference).sort()).toEqual(ledger.rows.map((r) => r.reference).sort());
    const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
    expect(sum(paid.map((r) => minorOf(r.net)))).toBe(sum(ledger.rows.map((r) => r.received)));
    expect(sum(paid.map((r) => minorOf(r.fee)))).toBe(sum(ledger.rows.map((r) => r.fee)));
    expect(sum(ledger.rows.map((r) => r.fee))).toBeGreaterThan(0);
    const failed = file.rows.find((r) => r.reference === fin.references.paymentFailed)!;
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).not.toBe('');
  });

  it('applies the page filters', async () => {
    const only = async (query: string) => (await csv(`/payments/export?${query}`)).rows.map((r) => r.reference).sort();
    expect(await only('status=failed')).toEqual([fin.references.paymentFailed]);
    expect(await only('type=direct-charge')).toEqual([fin.references.paymentWallet]);
    expect(await only(`q=${fin.references.paymentHosted}`)).toEqual([fin.references.paymentHosted]);
  });

  it('in live mode holds the live rows only', async () => {
    const file = await csv('/payments/export', `${cookies.finance}; gc_mode=live`);
    expect(file.rows.map((r) => [r.amount, r.fee, r.net, r.amount_minor, r.fee_minor, r.net_minor])).toEqual([['8.88', '0.13', '8.88', '888', '13', '888']]);
  });
});

describe('who may export', () => {
  it('owner and finance may; operator and support get 403 in the envelope; signed out gets 401', async () => {
    for (const path of ['/payouts/export', '/payments/export']) {
      expect((await get(path, cookies.owner)).status).toBe(200);
      for (const role of ['operator', 'support'] as const) {
        const res = await get(path, cookies[role]);
        expect(res.status, `${role} ${path}`).toBe(403);
        expect(res.headers.get('content-type')).toMatch(/application\/json/);
        expect(JSON.parse(res.text)).toMatchObject({ status: 'error', message: 'Forbidden' });
      }
      const out = await get(path, '');
      expect(out.status).toBe(401);
      expect(JSON.parse(out.text)).toMatchObject({ status: 'error' });
    }
  });
});

describe('the wall clock of an export', () => {
  it('matches wallClock across clock changes', () => {
    for (const zone of ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Africa/Addis_Ababa']) {
      const clock = wallClockFormatter(zone);
      for (const start of [Date.UTC(2026, 2, 8, 5), Date.UTC(2026, 9, 25, 0), Date.UTC(2026, 3, 5, 14), Date.UTC(2026, 10, 1, 5)]) {
        for (let ms = start; ms < start + 3 * 3_600_000; ms += 7 * 60_000 + 13_001) {
          expect(clock(new Date(ms)), `${zone} ${new Date(ms).toISOString()}`).toBe(wallClock(zone, new Date(ms)));
        }
      }
    }
    expect(wallClockFormatter(ZONE)(null)).toBeNull();
  });
});
