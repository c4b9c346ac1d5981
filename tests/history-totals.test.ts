import { randomUUID } from 'node:crypto';
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { createDb, type Db, type DbOrTx } from '../lib/db/client';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { signInDashboard } from '../bench/bench-env';
import { paymentTotals, payoutTotals, totalsPlan, type HistoryTotals, type Span } from '../lib/dashboard/history-totals';
import { foldAll, foldedThrough, foldHistoryTotals } from '../lib/dashboard/history-totals-fold';
import { parseListView, type ListSort } from '../lib/dashboard/keyset-cursor';
import { searchPayments, type PaymentFilters } from '../lib/dashboard/search-payments';
import { searchPayouts, type PayoutFilters } from '../lib/dashboard/search-payouts';
import { dayIn, nextDay, zonedDayStart } from '../lib/time-zone';
import { payoutNet } from '../lib/dashboard/net-amount';
import { payerRule } from '../lib/payouts/payout-quote';
import { PAYERS, splitAmounts } from '../lib/payouts/payout-rules';
import type { PayoutType } from '../lib/payouts/payout-view';
import { seedFinanceBusiness, type FinanceBusiness } from './finance-fixture';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';

interface Row {
  id: number;
  reference: string;
  type: string;
  status: string;
  currency: string;
  amount: number;
  fee: number;
  net: number;
  createdAt: Date;
}

/** The business's payouts straight from the table, net computed by the payout quote's own rule. */
async function payoutRows(businessId: number, db: DbOrTx = testDb()): Promise<Row[]> {
  const r = await db.execute<Record<string, any>>(sql`
    SELECT id, reference, payout_type, is_ledger_topup, status, currency, amount, service_fee, charge_payer, created_at FROM payouts
    WHERE business_id = ${businessId} AND mode = 'test'`);
  return r.rows.map((p) => ({
    id: Number(p.id),
    reference: p.reference,
    type: p.is_ledger_topup ? 'topup' : p.payout_type,
    status: p.status,
    currency: p.currency,
    amount: Number(p.amount),
    fee: Number(p.service_fee),
    net: splitAmounts(Number(p.amount), Number(p.service_fee), payerRule(p.payout_type as PayoutType, p.charge_payer).feeFromAmount).debit,
    createdAt: new Date(p.created_at),
  }));
}

async function paymentRows(businessId: number): Promise<Row[]> {
  const r = await testDb().execute<Record<string, any>>(sql`
    SELECT id, link_reference, type, status, currency, amount, service_fee, created_at FROM payments WHERE business_id = ${businessId} AND mode = 'test'`);
  return r.rows.map((p) => ({
    id: Number(p.id),
    reference: p.link_reference,
    type: p.type,
    status: p.status,
    currency: p.currency,
    amount: Number(p.amount),
    fee: Number(p.service_fee),
    net: Number(p.amount),
    createdAt: new Date(p.created_at),
  }));
}

type Filters = { type?: string; status?: string; from?: string; to?: string; q?: string };

/** The totals summed in the test from the rows, the filters applied by hand. */
function expected(rows: Row[], f: Filters, timeZone: string): HistoryTotals {
  const start = f.from ? zonedDayStart(f.from, timeZone) : null;
  const end = f.to ? zonedDayStart(nextDay(f.to), timeZone) : null;
  const by = new Map<string, { currency: string; count: number; amount: number; fee: number; net: number }>();
  for (const r of rows) {
    if ((f.type && r.type !== f.type) || (f.status && r.status !== f.status) || (f.q && r.reference !== f.q)) continue;
    if ((start && r.createdAt < start) || (end && r.createdAt >= end)) continue;
    const t = by.get(r.currency) ?? { currency: r.currency, count: 0, amount: 0, fee: 0, net: 0 };
    t.count++;
    t.amount += r.amount;
    t.fee += r.fee;
    t.net += r.net;
    by.set(r.currency, t);
  }
  const currencies = [...by.values()].sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency));
  return { count: currencies.reduce((n, c) => n + c.count, 0), currencies };
}

const truncate = (t: Date, grain: string) =>
  grain === 'month'
    ? Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1)
    : Math.floor(t.getTime() / (grain === 'hour' ? 3_600_000 : 86_400_000)) * (grain === 'hour' ? 3_600_000 : 86_400_000);

/** The payouts rollup recomputed in the test from the rows, bucket by bucket. */
function recomputed(rows: Row[]): Map<string, number[]> {
  const sums = new Map<string, number[]>();
  for (const r of rows) {
    for (const grain of ['hour', 'day', 'month']) {
      const key = [grain, truncate(r.createdAt, grain), r.type, r.status, r.currency].join('|');
      const s = sums.get(key) ?? [0, 0, 0, 0];
      sums.set(key, [s[0] + 1, s[1] + r.amount, s[2] + r.fee, s[3] + r.net]);
    }
  }
  return sums;
}

/** What history_totals holds for the business's payouts, summed over shards, keyed as recomputed() keys. */
async function rollupOf(businessId: number): Promise<Map<string, number[]>> {
  const kept = await testDb().execute<Record<string, string>>(sql`
    SELECT grain, bucket, type, status, currency, sum(count) AS count, sum(amount) AS amount, sum(fee) AS fee, sum(net) AS net
    FROM history_totals WHERE business_id = ${businessId} AND mode = 'test' AND list = 'payouts'
    GROUP BY 1, 2, 3, 4, 5 HAVING sum(count) <> 0 OR sum(amount) <> 0 OR sum(fee) <> 0 OR sum(net) <> 0`);
  return new Map(
    kept.rows.map((r) => [
      [r.grain, new Date(r.bucket).getTime(), r.type, r.status, r.currency].join('|'),
      [Number(r.count), Number(r.amount), Number(r.fee), Number(r.net)],
    ]),
  );
}

const ZONES = ['Africa/Addis_Ababa', 'Asia/Kathmandu', 'America/St_Johns', 'UTC'];

describe("the rollup trigger's net rule", () => {
  it('equals payoutNet for every payout type and payer, top-ups included', async () => {
    const cases = (Object.keys(PAYERS) as PayoutType[]).flatMap((type) =>
      PAYERS[type].flatMap((payer) => [false, true].map((topup) => ({ type, payer, topup }))),
    );
    for (const { type, payer, topup } of cases) {
      const row = { payout_type: type, charge_payer: payer, is_ledger_topup: topup, amount: 10_000, service_fee: 137 };
      const r = await testDb().execute<{ net: string }>(
        sql`SELECT (payout_history_change(jsonb_populate_record(NULL::payouts, ${JSON.stringify(row)}::jsonb), 1)).net AS net`,
      );
      expect(Number(r.rows[0].net), `${type} paid by ${payer}`).toBe(payoutNet({ payoutType: type, amount: 10_000, serviceFee: 137, chargePayer: payer }));
    }
  });
});

describe('totalsPlan', () => {
  it('covers any range exactly once: part-hours of rows at the edges, whole UTC hours, days and months between', () => {
    const base = Date.UTC(2025, 0, 1);
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const a = new Date(base + rand(600 * 24 * 60) * 60_000 + (i % 3) * 15 * 60_000);
      const b = new Date(a.getTime() + rand(400 * 24 * 60) * 60_000);
      const start = i % 11 === 0 ? null : a;
      const end = i % 13 === 0 ? null : b;
      const plan = totalsPlan(start, end);
      const spans: Span[] = [...plan.rows, ...plan.buckets.map((x) => x.span)];
      for (const [lo, hi] of plan.rows) expect(lo && hi && hi.getTime() - lo.getTime()).toBeLessThan(3_600_000 * 2);
      for (const { grain, span } of plan.buckets) {
        for (const t of span) {
          if (!t) continue;
          if (grain === 'hour') expect(t.getTime() % 3_600_000).toBe(0);
          if (grain === 'day') expect(t.getTime() % 86_400_000).toBe(0);
          if (grain === 'month') expect(t.getUTCDate() === 1 && t.getTime() % 86_400_000 === 0).toBe(true);
        }
      }
      const key = (t: Date | null, side: 'lo' | 'hi') => (t ? t.getTime() : side === 'lo' ? -Infinity : Infinity);
      spans.sort((x, y) => key(x[0], 'lo') - key(y[0], 'lo'));
      if (start && end && start.getTime() === end.getTime()) continue;
      expect(key(spans[0][0], 'lo')).toBe(key(start, 'lo'));
      for (let s = 1; s < spans.length; s++) expect(key(spans[s][0], 'lo')).toBe(key(spans[s - 1][1], 'hi'));
      expect(key(spans[spans.length - 1][1], 'hi')).toBe(key(end, 'hi'));
    }
  });
});

describe('list totals on the finance business', () => {
  let fin: FinanceBusiness;
  beforeAll(async () => {
    fin = await seedFinanceBusiness('Totals');
    // Spread the rows over four months at odd minutes, so ranges cut hours, days and months in every zone.
    for (const [table, step, from] of [
      ['payouts', '9 days 7 hours 23 minutes', '2026-03-31 22:17:00Z'],
      ['payments', '17 days 5 hours 41 minutes', '2026-03-30 01:44:00Z'],
    ] as const) {
      await testDb().execute(sql`
        WITH n AS (SELECT id, row_number() OVER (ORDER BY id) AS i FROM ${sql.identifier(table)} WHERE business_id = ${fin.biz.id})
        UPDATE ${sql.identifier(table)} t SET created_at = ${from}::timestamptz - n.i * ${step}::interval FROM n WHERE t.id = n.id`);
    }
  }, 120_000);

  // The filters as the parsers would give them; the test's Filters type is looser.
  const ask = <F = PayoutFilters>(f: Filters, timeZone: string) => ({ businessId: fin.biz.id, mode: 'test' as const, timeZone, filters: f as F });

  it('equal the sums of the matching rows for every filter, in zones whole and half hours from UTC', async () => {
    const payouts = await payoutRows(fin.biz.id);
    const payments = await paymentRows(fin.biz.id);
    expect(new Set(payouts.map((p) => p.currency))).toEqual(new Set(['ETB', 'USD']));
    const byDate = (rows: Row[]) => [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    for (const timeZone of ZONES) {
      const po = byDate(payouts);
      const pa = byDate(payments);
      const day = (r: Row) => dayIn(timeZone, r.createdAt);
      const payoutFilters: Filters[] = [
        {},
        { status: 'success' },
        { status: 'pending' },
        { type: 'bank' },
        { type: 'topup' },
        { type: 'card_to_card', status: 'success' },
        { from: day(po[2]), to: day(po[6]) },
        { from: day(po[3]) },
        { to: day(po[4]) },
        { from: day(po[1]), to: day(po[1]) },
        { from: day(po[1]), to: day(po[po.length - 2]), status: 'success', type: 'topup' },
        { from: day(po[6]), to: day(po[2]) },
        { q: fin.references.bankFailed },
        { q: fin.references.bankFailed, status: 'success' },
      ];
      for (const f of payoutFilters) {
        expect(await payoutTotals(testDb(), ask(f, timeZone)), `payouts ${timeZone} ${JSON.stringify(f)}`).toEqual(expected(payouts, f, timeZone));
      }
      const paymentFilters: Filters[] = [
        {},
        { status: 'success' },
        { type: 'hosted' },
        { from: day(pa[1]), to: day(pa[2]) },
        { from: day(pa[0]), status: 'failed' },
        { q: fin.references.paymentWallet },
      ];
      for (const f of paymentFilters) {
        expect(await paymentTotals(testDb(), ask<PaymentFilters>(f, timeZone)), `payments ${timeZone} ${JSON.stringify(f)}`).toEqual(
          expected(payments, f, timeZone),
        );
      }
    }
    // Net is what left the cards: the customer-paid wallet payout adds its fee, the business-paid bank payout does not.
    const failed = payouts.find((p) => p.reference === fin.references.bankFailed)!;
    expect(failed.net).toBe(failed.amount + failed.fee);
    const settled = payouts.find((p) => p.reference === fin.references.bankSettled)!;
    expect(settled.net).toBe(settled.amount);
  });

  it('move when a pending payout settles or fails', async () => {
    const timeZone = 'Africa/Addis_Ababa';
    const before = { pending: await payoutTotals(testDb(), ask({ status: 'pending' }, timeZone)), all: await payoutTotals(testDb(), ask({}, timeZone)) };
    const pending = (await payoutRows(fin.biz.id)).find((p) => p.reference === fin.references.bankPending)!;
    expect(pending.status).toBe('pending');
    const settled = await fin.biz.test.post(`/api/v1/test-helpers/payouts/${pending.reference}/settle`, { status: 'success' });
    expect(settled.status).toBe(200);
    const etb = (t: HistoryTotals) => t.currencies.find((c) => c.currency === 'ETB') ?? { count: 0, amount: 0, fee: 0, net: 0 };
    const afterSettle = await payoutTotals(testDb(), ask({ status: 'pending' }, timeZone));
    expect(etb(afterSettle).count).toBe(etb(before.pending).count - 1);
    expect(etb(afterSettle).amount).toBe(etb(before.pending).amount - pending.amount);
    expect(await payoutTotals(testDb(), ask({}, timeZone))).toEqual(before.all);

    const bank = await fin.biz.test.post('/api/v1/card/payouts', {
      card_number: fin.cards.main,
      amount: 1_234,
      bank_slug: 'cbe',
      account_number: '1000555444123',
      account_name: 'Kebede',
    });
    expect(bank.body.data.status).toBe('PENDING');
    const failedBefore = await payoutTotals(testDb(), ask({ status: 'failed' }, timeZone));
    expect(etb(await payoutTotals(testDb(), ask({}, timeZone))).count).toBe(etb(before.all).count + 1);
    await fin.biz.test.post(`/api/v1/test-helpers/payouts/${bank.body.data.provider_reference}/settle`, { status: 'failed' });
    const failedAfter = await payoutTotals(testDb(), ask({ status: 'failed' }, timeZone));
    expect(etb(failedAfter).count).toBe(etb(failedBefore).count + 1);
    expect(etb(failedAfter).amount).toBe(etb(failedBefore).amount + 1_234);
    for (const f of [{}, { status: 'failed' }, { status: 'pending' }, { type: 'bank' }]) {
      expect(await payoutTotals(testDb(), ask(f, timeZone))).toEqual(expected(await payoutRows(fin.biz.id), f, timeZone));
    }
  });
});

describe('sorting and paging', () => {
  let biz: TestBusiness;
  beforeAll(async () => {
    biz = await createTestBusiness('Sorted');
    // Amounts repeat (ties broken by id) and dates repeat too.
    await testDb().execute(sql`
      INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference, actor_type, created_at)
      SELECT ${biz.id}, 'test', 'card_to_card', CASE WHEN g % 4 = 0 THEN 'failed' ELSE 'success' END, 'ETB', 100 * (1 + g % 6), g % 3, 'sender',
             'po_sort_' || ${biz.id} || '_' || g, 'system', timestamptz '2026-05-01' - (g / 3) * interval '1 hour'
      FROM generate_series(1, 47) g`);
  });

  const order: Record<ListSort, (a: Row, b: Row) => number> = {
    newest: (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id,
    oldest: (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id,
    largest: (a, b) => b.amount - a.amount || b.id - a.id,
    smallest: (a, b) => a.amount - b.amount || a.id - b.id,
  };

  it('pages through every row exactly once in each order, forwards and back', async () => {
    const rows = await payoutRows(biz.id);
    for (const sort of ['largest', 'smallest', 'newest', 'oldest'] as const) {
      for (const filters of [{}, { status: 'success' as const }]) {
        const want = rows
          .filter((r) => !filters.status || r.status === filters.status)
          .sort(order[sort])
          .map((r) => r.reference);
        const pages: string[][] = [];
        let after: string | null = null;
        let last: Awaited<ReturnType<typeof searchPayouts>> | undefined;
        do {
          last = await searchPayouts(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'UTC', filters, sort, limit: 7, after });
          pages.push(last.rows.map((r) => r.reference));
          after = last.next;
        } while (after);
        expect(pages.flat(), `${sort} ${JSON.stringify(filters)}`).toEqual(want);
        // Back from the last page by its "previous" cursors: the same pages, in reverse.
        let before = last.prev;
        for (let i = pages.length - 2; i >= 0; i--) {
          const page = await searchPayouts(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'UTC', filters, sort, limit: 7, before });
          expect(page.rows.map((r) => r.reference)).toEqual(pages[i]);
          before = page.prev;
        }
        expect(before).toBeNull();
      }
    }
  });

  it('starts over when a cursor belongs to another order or was tampered with', async () => {
    const first = await searchPayouts(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'UTC', filters: {}, sort: 'newest', limit: 5 });
    const largest = await searchPayouts(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'UTC', filters: {}, sort: 'largest', limit: 5 });
    const crossed = await searchPayouts(testDb(), {
      businessId: biz.id,
      mode: 'test',
      timeZone: 'UTC',
      filters: {},
      sort: 'largest',
      limit: 5,
      after: first.next,
    });
    expect(crossed.rows.map((r) => r.id)).toEqual(largest.rows.map((r) => r.id));
    const junk = await searchPayments(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'UTC', filters: {}, sort: 'smallest', limit: 5, after: 'YTox' });
    expect(junk.rows).toEqual([]);
  });

  it('falls back to newest first and 25 rows for an unknown sort or page size, over HTTP too', async () => {
    expect(parseListView({ sort: 'bogus', size: '7' })).toEqual({ sort: 'newest', size: 25 });
    expect(parseListView({ sort: 'largest', size: '100' })).toEqual({ sort: 'largest', size: 100 });
    expect(parseListView({ sort: ['smallest', 'x'], size: '50.0' })).toEqual({ sort: 'smallest', size: 25 });
    const email = `finance-${randomUUID().slice(0, 8)}@example.com`;
    expect((await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'a-long-password', role: 'finance' })).status).toBe(201);
    const cookie = await signInDashboard(inject('baseUrl'), email, 'a-long-password');
    const get = (path: string) => fetch(`${inject('baseUrl')}${path}`, { headers: { cookie } });
    for (const q of ['sort=bogus&size=7', 'sort=%00&size=-1&after=%FF', 'size=1e9&before=zz', 'sort=largest&size=100&after=YTo5OTk5OTk5OTk5OTk5OTk5OTk5OXwx']) {
      const res = await get(`/api/dashboard/payouts?${q}`);
      expect(res.status, q).toBe(200);
      const body = (await res.json()) as { rows: unknown[]; totals: HistoryTotals };
      expect(body.rows.length).toBeLessThanOrEqual(100);
      expect(body.totals.count).toBe(47);
      expect((await get(`/payouts?${q}`)).status).toBe(200);
      expect((await get(`/api/dashboard/payments?${q}`)).status).toBe(200);
    }
    const big = (await (await get('/api/dashboard/payouts?size=50&sort=largest')).json()) as { rows: { amount: number }[] };
    expect(big.rows).toHaveLength(47);
    expect(big.rows.map((r) => r.amount)).toEqual([...big.rows.map((r) => r.amount)].sort((a, b) => b - a));
  });
});

describe('the rollup under concurrent writers', () => {
  it('equals a full recomputation from the rows after 50 concurrent API payouts and concurrent settlements', async () => {
    const biz = await createTestBusiness('Concurrent totals');
    const admin = adminClient();
    expect((await admin.post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 2_000_000 })).status).toBe(200);
    expect(
      (await admin.put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [{ applies_to: 'card_to_card', percent: '1', fixed: 5 }] })).status,
    ).toBe(200);
    const cards = await Promise.all(Array.from({ length: 5 }, () => createCard(biz.test)));
    for (const card of cards) {
      const t = await biz.test.post('/api/v1/transfers', { amount: 200_000, bank_slug: 'link', account_number: card.card_number, account_name: 'Float' });
      expect(t.status).toBe(200);
      await biz.test.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
    }
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 5 === 4
          ? biz.test.post('/api/v1/card/payouts', {
              card_number: cards[i % 5].card_number,
              amount: 500 + i,
              bank_slug: 'cbe',
              account_number: `100010000${String(i).padStart(4, '0')}`,
              account_name: 'Almaz',
            })
          : biz.test.post('/api/v1/card/payouts', {
              card_number: cards[i % 5].card_number,
              destination_card_number: cards[(i + 1) % 5].card_number,
              amount: 1_000 + i,
              charge_payer: i % 2 ? 'receiver' : 'sender',
            }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
    const pendingRefs = answers
      .map((a) => a.body.data)
      .filter((d) => d.status === 'PENDING')
      .map((d) => d.provider_reference as string);
    expect(pendingRefs).toHaveLength(10);
    await Promise.all(pendingRefs.map((ref, i) => biz.test.post(`/api/v1/test-helpers/payouts/${ref}/settle`, { status: i % 2 ? 'failed' : 'success' })));

    const rows = await payoutRows(biz.id);
    expect(rows).toHaveLength(55);
    await foldAll(testDb(), 'payouts');
    expect(await rollupOf(biz.id)).toEqual(recomputed(rows));
    expect(await payoutTotals(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'Asia/Kathmandu', filters: {} })).toEqual(
      expected(rows, {}, 'Asia/Kathmandu'),
    );
  }, 120_000);
});

describe('folding rows into the rollup', () => {
  const insertPayout = (db: Db, businessId: number, i: number) =>
    db.execute<{ id: number }>(sql`
      INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference, actor_type, created_at)
      VALUES (${businessId}, 'test', ${i % 3 ? 'card_to_card' : 'bank'}, ${i % 4 ? 'success' : 'pending'}, 'ETB', ${100 + i}, ${i % 7}, ${i % 3 ? 'sender' : 'business'},
              ${`po_fold_${businessId}_${i}_${randomUUID().slice(0, 6)}`}, 'system', now() - ${i % 50} * interval '37 minutes')
      RETURNING id`);

  it('sums rows past the fold mark from the list, and counts them once folded, while an open writer holds the fold off', async () => {
    const biz = await createTestBusiness('Fold mark');
    const ask = { businessId: biz.id, mode: 'test' as const, timeZone: 'Asia/Kathmandu', filters: {} };
    for (let i = 0; i < 5; i++) await insertPayout(testDb(), biz.id, i);
    await foldAll(testDb(), 'payouts');
    const { db, pool } = createDb(inject('databaseUrl'), 2);
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let held!: () => void;
    const holding = new Promise<void>((r) => {
      held = r;
    });
    // An open writer's transaction: folds (the server's too) cannot know its ids are final, and give up after a while.
    const writer = db.transaction(async (tx) => {
      for (let i = 5; i < 12; i++) await insertPayout(tx, biz.id, i);
      held();
      await released;
    });
    await holding;
    for (let i = 12; i < 20; i++) await insertPayout(testDb(), biz.id, i);
    const mark = await foldedThrough(testDb(), 'payouts');
    // It gives up while the writer is still held open (released only below): a fold that waited for it would never return.
    expect(await foldHistoryTotals(testDb(), 'payouts')).toBe(false);
    expect(await foldedThrough(testDb(), 'payouts')).toBe(mark);
    const rows = await payoutRows(biz.id);
    expect(rows).toHaveLength(13);
    expect(rows.filter((r) => r.id > mark)).toHaveLength(8);
    expect(await payoutTotals(testDb(), ask)).toEqual(expected(rows, {}, ask.timeZone));
    release();
    await writer;
    await foldAll(testDb(), 'payouts');
    const all = await payoutRows(biz.id);
    expect(all).toHaveLength(20);
    expect(await foldedThrough(testDb(), 'payouts')).toBeGreaterThanOrEqual(Math.max(...all.map((r) => r.id)));
    expect(await rollupOf(biz.id)).toEqual(recomputed(all));
    expect(await payoutTotals(testDb(), ask)).toEqual(expected(all, {}, ask.timeZone));
    await pool.end();
  });

  it('counts every row exactly once while writers insert, roll back, update and delete around concurrent folds', async () => {
    const biz = await createTestBusiness('Fold race');
    const { db, pool } = createDb(inject('databaseUrl'), 8);
    // The race runs until it has seen what it is about (folds moving the mark while rows are written, changed and read),
    // not for a fixed time: on a loaded machine three seconds held too few folds. The deadline is only a safety net.
    const progress = { moves: 0, checked: 0, inserted: 0, changed: 0 };
    const deadline = Date.now() + 100_000;
    const going = () => (progress.moves <= 10 || progress.checked <= 10 || progress.inserted <= 30 || progress.changed <= 30) && Date.now() < deadline;
    let n = 0;
    const inserter = async () => {
      while (going()) {
        const i = n++;
        // Some stay open while later ids commit; some roll back and leave a gap in the ids.
        await db
          .transaction(async (tx) => {
            await insertPayout(tx, biz.id, i);
            if (i % 3 === 0) await tx.execute(sql`SELECT pg_sleep(0.03)`);
            if (i % 5 === 0) tx.rollback();
          })
          .then(() => {
            progress.inserted++;
          })
          .catch((err) => {
            if (!(err instanceof TransactionRollbackError)) throw err;
          });
      }
    };
    const changer = async () => {
      while (going()) {
        // Status and hour move (so rows change buckets), and now and then one goes: on rows folded or not yet.
        await db.execute(sql`
          UPDATE payouts SET status = CASE status WHEN 'pending' THEN 'success' WHEN 'success' THEN 'failed' ELSE 'pending' END,
                             created_at = created_at - interval '61 minutes'
          WHERE id = (SELECT id FROM payouts WHERE business_id = ${biz.id} ORDER BY random() LIMIT 1)`);
        if (Math.random() < 0.05)
          await db.execute(sql`DELETE FROM payouts WHERE id = (SELECT id FROM payouts WHERE business_id = ${biz.id} ORDER BY random() LIMIT 1)`);
        progress.changed++;
        // Yields to the other loops; not a wait for anything.
        await new Promise((r) => setTimeout(r, 2));
      }
    };
    const folder = async () => {
      while (going()) {
        const before = await foldedThrough(db, 'payouts');
        await foldHistoryTotals(db, 'payouts', 3);
        if ((await foldedThrough(db, 'payouts')) > before) progress.moves++;
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    // Totals read while folds commit: in one snapshot with the rows, and (for a business only inserted into, slowly)
    // alone between two equal reads of its rows, as the dashboard reads them.
    const quiet = await createTestBusiness('Fold race, read alone');
    const slowInserter = async () => {
      for (let i = 0; going(); i++) {
        await insertPayout(db, quiet.id, i);
        await new Promise((r) => setTimeout(r, 40));
      }
    };
    const reader = async () => {
      const misses: string[] = [];
      const ask = (businessId: number) => ({ businessId, mode: 'test' as const, timeZone: 'Asia/Kathmandu', filters: {} });
      while (going()) {
        await db.transaction(
          async (tx) => {
            const [rows, totals] = [await payoutRows(biz.id, tx), await payoutTotals(tx, ask(biz.id))];
            if (JSON.stringify(totals) !== JSON.stringify(expected(rows, {}, 'Asia/Kathmandu'))) misses.push('snapshot');
          },
          { isolationLevel: 'repeatable read', accessMode: 'read only' },
        );
        const before = await payoutRows(quiet.id, db);
        const totals = await payoutTotals(db, ask(quiet.id));
        const after = await payoutRows(quiet.id, db);
        if (before.length === after.length) {
          progress.checked++;
          if (JSON.stringify(totals) !== JSON.stringify(expected(after, {}, 'Asia/Kathmandu'))) misses.push('alone');
        }
      }
      return misses;
    };
    const [, , , , , , , , misses] = await Promise.all([
      inserter(),
      inserter(),
      inserter(),
      changer(),
      changer(),
      folder(),
      folder(),
      slowInserter(),
      reader(),
    ]);
    expect(misses).toEqual([]);
    expect(progress, 'the race reached every condition before the safety deadline').toMatchObject({
      moves: expect.toSatisfy((v: number) => v > 10),
      checked: expect.toSatisfy((v: number) => v > 10),
    });
    await foldAll(testDb(), 'payouts');
    const rows = await payoutRows(biz.id);
    expect(rows.length).toBeGreaterThan(20);
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['success', 'pending', 'failed']));
    expect(await rollupOf(biz.id)).toEqual(recomputed(rows));
    for (const f of [{}, { status: 'failed' }, { type: 'bank', status: 'pending' }] as PayoutFilters[]) {
      expect(await payoutTotals(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'America/St_Johns', filters: f })).toEqual(
        expected(rows, f, 'America/St_Johns'),
      );
    }
    await pool.end();
  }, 150_000);
});
