import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  getOverview,
  getPeriodVolume,
  MAX_PERIOD_DAYS,
  parseOverviewPeriod,
  paymentsPeriodQuery,
  payoutsPeriodQuery,
  type PeriodTotals,
  type PeriodVolume,
  type PeriodVolumeOptions,
} from '../lib/dashboard/overview';
import type { DbOrTx, Tx } from '../lib/db/client';
import { nextDay, zonedDayStart } from '../lib/time-zone';
import { ServiceError } from '../lib/errors';
import { addCrossBusinessCardToCard, crossCardToCardFromLedger, type FinanceBusiness, seedFinanceBusiness } from './finance-fixture';
import { testDb } from './helpers';

const ZONE = 'Africa/Addis_Ababa';
const NOW = new Date('2026-11-24T08:00:00Z');

/** Runs fn in a transaction that is always rolled back: other test files share this database. */
async function rolledBack(fn: (tx: Tx) => Promise<void>) {
  const undo = new Error('roll back');
  await expect(
    testDb().transaction(async (tx) => {
      await fn(tx);
      throw undo;
    }),
  ).rejects.toBe(undo);
}

interface Expected {
  currency: string;
  paid: { count: number; amount: number; fee: number };
  out: { count: number; amount: number; fee: number };
  byType: Record<string, { count: number; amount: number; fee: number }>;
  fees: number;
  failedPayments: number;
  failedPayouts: number;
}

/** The period's totals straight from the rows, written apart from the code under test. */
async function expectedFromRows(db: DbOrTx, businessId: number, mode: string, from: Date, to: Date): Promise<Map<string, Expected>> {
  const payments = await db.execute<{ currency: string; status: string; count: number; amount: number; fee: number }>(sql`
    SELECT currency, status, count(*)::int AS count, sum(amount)::float8 AS amount, sum(service_fee)::float8 AS fee
    FROM payments WHERE business_id = ${businessId} AND mode = ${mode} AND created_at >= ${from.toISOString()}::timestamptz AND created_at < ${to.toISOString()}::timestamptz
    GROUP BY 1, 2`);
  // What leaves the paying card: the fee comes off what is received when the receiver or the business pays it, else it is added.
  const payouts = await db.execute<{ currency: string; status: string; type: string; count: number; debit: number; fee: number; crossing: boolean }>(sql`
    SELECT p.currency, p.status, CASE WHEN p.is_ledger_topup THEN 'topup' ELSE p.payout_type END AS type, count(*)::int AS count,
           sum(CASE WHEN p.charge_payer IN ('receiver', 'business') THEN p.amount ELSE p.amount + p.service_fee END)::float8 AS debit,
           sum(p.service_fee)::float8 AS fee,
           coalesce(d.business_id <> p.business_id, false) AS crossing
    FROM payouts p LEFT JOIN cards d ON d.card_number = p.destination_card_number AND p.payout_type = 'card_to_card'
    WHERE p.business_id = ${businessId} AND p.mode = ${mode} AND p.created_at >= ${from.toISOString()}::timestamptz AND p.created_at < ${to.toISOString()}::timestamptz
    GROUP BY 1, 2, 3, 7`);
  const out = new Map<string, Expected>();
  const of = (currency: string) => {
    const e = out.get(currency) ?? {
      currency,
      paid: { count: 0, amount: 0, fee: 0 },
      out: { count: 0, amount: 0, fee: 0 },
      byType: {},
      fees: 0,
      failedPayments: 0,
      failedPayouts: 0,
    };
    out.set(currency, e);
    return e;
  };
  for (const r of payments.rows) {
    const e = of(r.currency);
    if (r.status === 'success') {
      e.paid = { count: r.count, amount: r.amount, fee: r.fee };
      e.fees += r.fee;
    }
    if (r.status === 'failed' || r.status === 'cancelled') e.failedPayments += r.count;
  }
  for (const r of payouts.rows) {
    const e = of(r.currency);
    if (r.status === 'failed') e.failedPayouts += r.count;
    if (r.status !== 'success') continue;
    const byType = e.byType[r.type] ?? { count: 0, amount: 0, fee: 0 };
    e.byType[r.type] = { count: byType.count + r.count, amount: byType.amount + r.debit, fee: byType.fee + r.fee };
    e.fees += r.fee;
    // Card-to-card to another business's card leaves the business.
    if (r.type === 'bank' || r.type === 'b2b' || r.crossing) {
      e.out.count += r.count;
      e.out.amount += r.debit;
      e.out.fee += r.fee;
    }
  }
  return out;
}

function expectTotalsMatch(totals: PeriodTotals, e: Expected) {
  expect(totals.paymentsIn, `${e.currency} payments in`).toEqual(e.paid);
  expect(totals.payoutsOut, `${e.currency} payouts out`).toEqual(e.out);
  for (const type of ['bank', 'b2b', 'card_to_card', 'topup'] as const) {
    expect(totals.payoutsByType[type], `${e.currency} ${type}`).toEqual(e.byType[type] ?? { count: 0, amount: 0, fee: 0 });
  }
  expect(totals.netVolume).toBe(e.paid.amount + totals.cardToCardIn.amount - e.out.amount);
  expect(totals.fees).toBe(e.fees);
  expect(totals.failed).toEqual({ payments: e.failedPayments, payouts: e.failedPayouts });
}

/** The per-day series of each currency adds up to its period totals. */
function expectSeriesSumsToTotals(volume: PeriodVolume) {
  for (const t of volume.totals) {
    const days = volume.days.filter((d) => d.currency === t.currency);
    const sum = (k: 'paymentsIn' | 'payoutsOut' | 'net' | 'paymentCount' | 'payoutCount') => days.reduce((s, d) => s + d[k], 0);
    expect(new Set(days.map((d) => d.day)).size).toBe(days.length);
    expect([sum('paymentsIn'), sum('paymentCount')], `${t.currency} in`).toEqual([
      t.paymentsIn.amount + t.cardToCardIn.amount,
      t.paymentsIn.count + t.cardToCardIn.count,
    ]);
    expect([sum('payoutsOut'), sum('payoutCount')], `${t.currency} out`).toEqual([t.payoutsOut.amount, t.payoutsOut.count]);
    expect(sum('net'), `${t.currency} net`).toBe(t.netVolume);
  }
}

const startOf = (opts: PeriodVolumeOptions) => new Date(`${opts.period.from}T00:00:00Z`);

describe('card-to-card across businesses', () => {
  let fin: FinanceBusiness;

  beforeAll(async () => {
    fin = await seedFinanceBusiness('Overview cross');
    await addCrossBusinessCardToCard(fin);
  }, 180_000);

  it('counts as money out for the sender and money in for the receiver, both equal to the ledger of their own cards', async () => {
    for (const business of [fin.biz, fin.other]) {
      const opts: PeriodVolumeOptions = { businessId: business.id, mode: 'test', timeZone: ZONE, period: parseOverviewPeriod({ period: 'today' }, ZONE) };
      const volume = await getPeriodVolume(testDb(), opts);
      const from = zonedDayStart(opts.period.from, ZONE);
      const to = zonedDayStart(nextDay(opts.period.to), ZONE);
      const ledger = await crossCardToCardFromLedger(testDb(), business.id, from, to);
      const rows = await expectedFromRows(testDb(), business.id, 'test', from, to);
      const etb = volume.totals.find((t) => t.currency === 'ETB')!;
      expect(etb.cardToCardIn, `${business.name} in`).toEqual(ledger.in('ETB'));
      expect(etb.cardToCardOut, `${business.name} out`).toEqual(ledger.out('ETB'));
      // Each business sent one card-to-card payout to the other and received one.
      expect([etb.cardToCardIn.count, etb.cardToCardOut.count], business.name).toEqual([1, 1]);
      expectTotalsMatch(etb, rows.get('ETB')!);
      expect(etb.netVolume).toBe(etb.paymentsIn.amount + etb.cardToCardIn.amount - etb.payoutsOut.amount);
      expectSeriesSumsToTotals(volume);
    }
    const sender = (
      await getPeriodVolume(testDb(), { businessId: fin.biz.id, mode: 'test', timeZone: ZONE, period: parseOverviewPeriod({ period: 'today' }, ZONE) })
    ).totals[0];
    // 100,000 plus the sender's 1% + 0.10 fee left biz; the partner paid 8,000, less any fee it charges the receiver, into biz's second card.
    expect([sender.cardToCardOut.amount, sender.cardToCardOut.fee]).toEqual([101_010, 1_010]);
    expect(sender.cardToCardIn.amount).toBeGreaterThan(0);
    expect(sender.cardToCardIn.amount).toBeLessThanOrEqual(8_000);
  });
});

describe('the overview period', () => {
  it('reads today, 7 and 30 days as calendar days of the business zone, today included', () => {
    // 08:00 UTC is 11:00 in Addis Ababa and 03:00 in New York: the same instant, one calendar day.
    expect(parseOverviewPeriod({}, ZONE, NOW)).toEqual({ kind: '30d', from: '2026-10-26', to: '2026-11-24' });
    expect(parseOverviewPeriod({ period: 'today' }, ZONE, NOW)).toEqual({ kind: 'today', from: '2026-11-24', to: '2026-11-24' });
    expect(parseOverviewPeriod({ period: '7d' }, ZONE, NOW)).toEqual({ kind: '7d', from: '2026-11-18', to: '2026-11-24' });
    // 02:00 UTC is still the day before in Los Angeles.
    expect(parseOverviewPeriod({ period: 'today' }, 'America/Los_Angeles', new Date('2026-11-24T02:00:00Z')).from).toBe('2026-11-23');
    expect(parseOverviewPeriod({ period: 'yearly' }, ZONE, NOW).kind).toBe('30d');
    expect(parseOverviewPeriod({ from: '2026-01-01', to: '2026-12-31' }, ZONE, NOW)).toEqual({ kind: 'custom', from: '2026-01-01', to: '2026-12-31' });
    expect(parseOverviewPeriod({ period: 'custom', from: '2024-01-01', to: '2024-12-31' }, ZONE, NOW).to).toBe('2024-12-31');
  });

  it('refuses a custom range it cannot show with a message for its field, never a crash', () => {
    const refusal = (input: { from?: string; to?: string }) => {
      try {
        parseOverviewPeriod({ period: 'custom', ...input }, ZONE, NOW);
      } catch (e) {
        expect(e).toBeInstanceOf(ServiceError);
        const err = e as ServiceError;
        expect(err.code).toBe('validation_error');
        return [err.field, String(err.detail)];
      }
      throw new Error(`accepted ${JSON.stringify(input)}`);
    };
    expect(refusal({ from: '2026-05-10', to: '2026-05-01' })).toEqual(['to', 'To must be the same day as From or later.']);
    // 2024 is a leap year: 366 days fit, 367 do not.
    expect(parseOverviewPeriod({ period: 'custom', from: '2024-01-01', to: '2024-12-31' }, ZONE, NOW).from).toBe('2024-01-01');
    expect(refusal({ from: '2024-01-01', to: '2025-01-01' })).toEqual(['to', `A custom period can be at most ${MAX_PERIOD_DAYS} days; this one is 367.`]);
    expect(refusal({ from: '2026-02-30', to: '2026-03-01' })).toEqual(['from', 'From is not a day of the calendar: 2026-02-30 does not exist.']);
    expect(refusal({ from: '2026-1-5', to: '2026-03-01' })[1]).toMatch(/YYYY-MM-DD/);
    expect(refusal({ from: '2026-01-05', to: "2026-03-01' OR 1=1" })[0]).toBe('to');
    expect(refusal({ from: '0001-01-01', to: '0001-02-01' })[0]).toBe('from');
    expect(refusal({ to: '2026-03-01' })).toEqual(['from', 'Enter a From day.']);
    expect(refusal({ from: '2026-03-01' })).toEqual(['to', 'Enter a To day.']);
  });
});

describe('overview volume for a period', () => {
  let fin: FinanceBusiness;
  let opts: PeriodVolumeOptions;

  beforeAll(async () => {
    fin = await seedFinanceBusiness('Overview');
    opts = { businessId: fin.biz.id, mode: 'test', timeZone: ZONE, period: parseOverviewPeriod({ period: '7d' }, ZONE) };
  }, 120_000);

  const bounds = (o: PeriodVolumeOptions) => {
    const to = new Date(`${o.period.to}T00:00:00Z`);
    // The period's UTC bounds, widened by a day either side: the fixture's rows are all from the last minutes.
    return [new Date(startOf(o).getTime() - 86_400_000), new Date(to.getTime() + 2 * 86_400_000)] as const;
  };

  it('totals per currency equal sums straight from the payments and payouts rows, and the days add up to them', async () => {
    const volume = await getPeriodVolume(testDb(), opts);
    const expected = await expectedFromRows(testDb(), fin.biz.id, 'test', ...bounds(opts));
    expect(volume.totals.map((t) => t.currency)).toEqual(['ETB', 'USD']);
    for (const t of volume.totals) expectTotalsMatch(t, expected.get(t.currency)!);
    expectSeriesSumsToTotals(volume);
    expect(volume.days).toHaveLength(2 * 7);

    // The fixture's own figures: two paid payments in, a settled bank payout and a B2B payout out, the rest inside or not done.
    const etb = volume.totals.find((t) => t.currency === 'ETB')!;
    expect(etb.paymentsIn.count).toBe(2);
    expect(etb.payoutsOut.count).toBe(2);
    expect(etb.payoutsByType.card_to_card.count).toBe(1);
    expect(etb.payoutsByType.topup.count).toBe(2);
    expect(etb.failed).toEqual({ payments: 1, payouts: 2 });
    expect(etb.pending.payouts.count).toBe(1);
    expect(etb.netVolume).toBe(etb.paymentsIn.amount - etb.payoutsOut.amount);
    expect(etb.fees).toBeGreaterThan(etb.paymentsIn.fee);
    const usd = volume.totals.find((t) => t.currency === 'USD')!;
    expect([usd.paymentsIn.count, usd.payoutsOut.count, usd.payoutsByType.topup.count, usd.netVolume]).toEqual([0, 0, 1, 0]);
  });

  it('payouts out are what left the cards in the ledger, and payments in what the cards received', async () => {
    const volume = await getPeriodVolume(testDb(), opts);
    const ledger = await testDb().execute<{ currency: string; out: number; in: number }>(sql`
      SELECT currency, coalesce(sum(-amount) FILTER (WHERE side = 'out'), 0)::float8 AS out, coalesce(sum(amount) FILTER (WHERE side = 'in'), 0)::float8 AS in
      FROM (
        SELECT 'out' AS side, e.currency, e.amount FROM payouts p JOIN ledger_entries e ON e.transaction_id = p.transaction_id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE p.business_id = ${fin.biz.id} AND p.mode = 'test' AND p.status = 'success' AND p.payout_type IN ('bank', 'b2b') AND NOT p.is_ledger_topup
          AND e.amount < 0 AND a.business_id = ${fin.biz.id}
        UNION ALL
        SELECT 'in', e.currency, e.amount FROM payments p JOIN ledger_entries e ON e.transaction_id = p.transaction_id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE p.business_id = ${fin.biz.id} AND p.mode = 'test' AND p.status = 'success' AND e.amount > 0 AND a.business_id = ${fin.biz.id}
      ) m GROUP BY currency`);
    for (const row of ledger.rows) {
      const t = volume.totals.find((x) => x.currency === row.currency)!;
      expect([t.payoutsOut.amount, t.paymentsIn.amount], row.currency).toEqual([row.out, row.in]);
    }
    expect(ledger.rows.find((r) => r.currency === 'ETB')?.out).toBeGreaterThan(0);
  });

  it('never counts another business or the other mode', async () => {
    const before = await getPeriodVolume(testDb(), opts);
    await rolledBack(async (tx) => {
      // Copies of every one of this business's rows, under the partner business and in live mode.
      for (const [businessId, mode, tag] of [
        [fin.other.id, 'test', 'x-biz'],
        [fin.biz.id, 'live', 'x-live'],
      ] as const) {
        await tx.execute(sql`
          INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference, is_ledger_topup, actor_type, created_at)
          SELECT ${businessId}, ${mode}, payout_type, status, currency, amount, service_fee, charge_payer, reference || ${`-${tag}`}, is_ledger_topup, actor_type, created_at
          FROM payouts WHERE business_id = ${fin.biz.id} AND mode = 'test'`);
        await tx.execute(sql`
          INSERT INTO payments (business_id, mode, type, status, link_reference, currency, amount, service_fee, card_id, card_number, actor_type, created_at)
          SELECT ${businessId}, ${mode}, type, status, link_reference || ${`-${tag}`}, currency, amount, service_fee, card_id, card_number, actor_type, created_at
          FROM payments WHERE business_id = ${fin.biz.id} AND mode = 'test'`);
      }
      const after = await getPeriodVolume(tx, opts);
      expect(after).toEqual(before);
      // The live copies are exactly the test rows again: live mode reads only its own.
      const live = await getPeriodVolume(tx, { ...opts, mode: 'live' });
      expect(live.totals).toEqual(before.totals);
      const partner = await getPeriodVolume(tx, { ...opts, businessId: fin.other.id });
      const partnerExpected = await expectedFromRows(tx, fin.other.id, 'test', ...bounds(opts));
      for (const t of partner.totals) expectTotalsMatch(t, partnerExpected.get(t.currency)!);
    });
    // The B2B payout the partner sent is the partner's: this business's B2B count is only the one it sent.
    expect(before.totals.find((t) => t.currency === 'ETB')!.payoutsByType.b2b.count).toBe(1);
  });

  it('puts a payout at 23:30 local on its local day and a payment at 00:10 on the next, in any zone', async () => {
    const ref = fin.references;
    await rolledBack(async (tx) => {
      const bank = await tx.execute<{ debit: number }>(sql`
        SELECT (amount + CASE WHEN charge_payer = 'business' THEN 0 ELSE service_fee END)::float8 AS debit FROM payouts WHERE reference = ${ref.bankSettled}`);
      const debit = bank.rows[0].debit;
      const paid = 20_000;
      // New York, the night before clocks go forward (2025-03-09): 23:30 EST is 04:30 UTC the next date, 00:10 is 05:10 UTC.
      // Addis Ababa (UTC+3): 23:30 is 20:30 UTC the same date, 00:10 is 21:10 UTC the date before.
      for (const [zone, payoutAt, paymentAt, day] of [
        ['America/New_York', '2025-03-09T04:30:00Z', '2025-03-09T05:10:00Z', '2025-03-08'],
        ['Africa/Addis_Ababa', '2025-06-01T20:30:00Z', '2025-06-01T21:10:00Z', '2025-06-01'],
      ] as const) {
        await tx.execute(sql`UPDATE payouts SET created_at = ${payoutAt}::timestamptz WHERE reference = ${ref.bankSettled}`);
        await tx.execute(sql`UPDATE payments SET created_at = ${paymentAt}::timestamptz WHERE link_reference = ${ref.paymentHosted}`);
        const next = new Date(Date.parse(`${day}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
        const base = { businessId: fin.biz.id, mode: 'test' as const, timeZone: zone };
        const sameDay = await getPeriodVolume(tx, { ...base, period: { from: day, to: day } });
        const etb = sameDay.totals.find((t) => t.currency === 'ETB')!;
        expect([etb.payoutsOut.count, etb.payoutsOut.amount, etb.paymentsIn.count], `${zone} ${day}`).toEqual([1, debit, 0]);
        const nextDay = await getPeriodVolume(tx, { ...base, period: { from: next, to: next } });
        const etbNext = nextDay.totals.find((t) => t.currency === 'ETB')!;
        expect([etbNext.payoutsOut.count, etbNext.paymentsIn.count, etbNext.paymentsIn.amount], `${zone} ${next}`).toEqual([0, 1, paid]);
        const both = await getPeriodVolume(tx, { ...base, period: { from: day, to: next } });
        expect(both.days.filter((d) => d.currency === 'ETB').map((d) => [d.day, d.paymentsIn, d.payoutsOut])).toEqual([
          [day, 0, debit],
          [next, paid, 0],
        ]);
        expectSeriesSumsToTotals(both);
      }
    });
  });

  it('the overview lists a currency the business holds even with nothing in the period', async () => {
    const overview = await getOverview(testDb(), {
      businessId: fin.biz.id,
      mode: 'test',
      timeZone: ZONE,
      period: { kind: 'custom', from: '2020-01-01', to: '2020-01-03' },
    });
    expect(overview.balances.map((b) => b.currency)).toEqual(['ETB', 'USD']);
    expect(overview.volume!.totals.map((t) => [t.currency, t.netVolume, t.paymentsIn.count])).toEqual([
      ['ETB', 0, 0],
      ['USD', 0, 0],
    ]);
    expect(overview.volume!.days).toHaveLength(6);
    const none = await getOverview(testDb(), { businessId: fin.biz.id, mode: 'test', timeZone: ZONE });
    expect(none.volume).toBeUndefined();
    expect(none.recent.length).toBeGreaterThan(0);
  });

  it('reads a 366-day period of a busy business on the list indexes: its rows of those days, nothing else', async () => {
    const year: PeriodVolumeOptions = { ...opts, period: { from: '2025-11-25', to: '2026-11-24' } };
    await rolledBack(async (tx) => {
      // Three years of 12 payouts and 12 payments a day for this business and as many for its partner, with statistics that
      // say so (ANALYZE inside the transaction sees its own rows, and its statistics roll back with it).
      for (const businessId of [fin.biz.id, fin.other.id]) {
        await tx.execute(sql`
          INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference, actor_type, created_at)
          SELECT ${businessId}, 'test', 'bank', 'success', 'ETB', 1000, 50, 'business', 'busy-' || ${businessId} || '-' || g, 'api_key',
                 timestamptz '2026-11-24 12:00Z' - (g % 1095) * interval '1 day' - (g % 24) * interval '1 hour'
          FROM generate_series(1, 13140) g`);
        await tx.execute(sql`
          INSERT INTO payments (business_id, mode, type, status, link_reference, currency, amount, service_fee, card_id, card_number, actor_type, created_at)
          SELECT ${businessId}, 'test', 'hosted', 'success', 'busy-' || ${businessId} || '-' || g, 'ETB', 1000, 15, 1, '0000', 'api_key',
                 timestamptz '2026-11-24 12:00Z' - (g % 1095) * interval '1 day' - (g % 24) * interval '1 hour'
          FROM generate_series(1, 13140) g`);
      }
      await tx.execute(sql`ANALYZE payouts`);
      await tx.execute(sql`ANALYZE payments`);
      for (const [query, table, index] of [
        [paymentsPeriodQuery(year), 'payments', 'payments_list_idx'],
        [payoutsPeriodQuery(year), 'payouts', 'payouts_list_idx'],
      ] as const) {
        const inRange = await tx.execute<{ n: number }>(sql`
          SELECT count(*)::int AS n FROM ${sql.raw(table)} WHERE business_id = ${fin.biz.id} AND mode = 'test'
            AND created_at >= '2025-11-24T21:00:00Z' AND created_at < '2026-11-24T21:00:00Z'`);
        const plan = (await tx.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${query}`)).rows
          .map((r) => r['QUERY PLAN'])
          .join('\n');
        expect(plan).toMatch(new RegExp(`(Index Scan using|Index Only Scan using|Bitmap Index Scan on) ${index}`));
        expect(plan).toMatch(/Index Cond: \(\(business_id = \d+\) AND \(mode = 'test'::text\) AND \(created_at >= .*\) AND \(created_at < .*\)\)/);
        // The scan reads exactly the business's rows of those days: none of the partner's, none of the older years.
        const scanned = /(?:Index Scan|Bitmap Heap Scan|Index Only Scan)[^\n]*\(actual (?:time=\S+ )?rows=(\d+)/.exec(plan);
        expect(Number(scanned?.[1]), plan).toBe(inRange.rows[0].n);
        expect(plan).not.toMatch(/Rows Removed by Filter/);
        expect(inRange.rows[0].n).toBeGreaterThan(4000);
      }
    });
  });
});
