import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx } from '../lib/db/client';
import { dayIn, nextDay, zonedDayStart } from '../lib/time-zone';
import { FIGURES, parseReconciliationParams, type ReconciliationOptions, type ReconciliationReport } from '../lib/reports/reconciliation/definitions';
import { sandboxProvider } from '../lib/providers/sandbox';
import { reconciliationCsvFile } from '../lib/reports/reconciliation/export';
import { reconciliationReport } from '../lib/reports/reconciliation/report';
import { addCrossBusinessCardToCard, crossCardToCardFromLedger, seedFinanceBusiness, type FinanceBusiness } from './finance-fixture';
import { rolledBack, testDb } from './helpers';

const TZ = 'Africa/Addis_Ababa';
const today = () => dayIn(TZ, new Date());

/**
 * The figures summed a second way, straight from ledger_entries: for each
 * column the entries on this business's own accounts (or the fee accounts) of
 * its transactions of that kind, per day of the zone and currency. Written
 * apart from the report's query, with joins where it uses filters.
 */
async function ledgerSums(db: DbOrTx, businessId: number, from: string, to: string) {
  const start = zonedDayStart(from, TZ).toISOString();
  const end = zonedDayStart(nextDay(to), TZ).toISOString();
  const r = await db.execute<{ day: string; currency: string; col: string; total: number }>(sql`
    WITH mine AS (
      SELECT t.id, t.kind, t.business_id, t.reference, to_char(t.created_at AT TIME ZONE ${TZ}, 'YYYY-MM-DD') AS day
      FROM ledger_transactions t
      WHERE t.mode = 'test' AND t.created_at >= ${start}::timestamptz AND t.created_at < ${end}::timestamptz
        AND (t.business_id = ${businessId} OR t.id IN (
          SELECT e.transaction_id FROM ledger_entries e JOIN ledger_accounts a ON a.id = e.account_id
          WHERE a.business_id = ${businessId} AND a.kind = 'business' AND a.mode = 'test'))
    ), lines AS (
      SELECT m.day, e.currency, m.kind, m.business_id, m.reference, e.amount, a.kind AS account_kind, a.name,
        (a.business_id = ${businessId} AND a.kind IN ('card', 'business')) AS own
      FROM mine m JOIN ledger_entries e ON e.transaction_id = m.id JOIN ledger_accounts a ON a.id = e.account_id
    ), labelled AS (
      SELECT day, currency, amount, CASE
        WHEN kind = 'payment' AND own AND amount > 0 THEN 'payments'
        WHEN kind = 'business_deposit' AND own AND amount > 0 THEN 'deposits'
        WHEN kind = 'payout_b2b' AND business_id <> ${businessId} AND own AND amount > 0 THEN 'b2bReceived'
        WHEN kind = 'transfer_settlement' AND own AND amount > 0 THEN 'topupsDelivered'
        WHEN kind = 'payout_card_to_card' AND own AND amount > 0 THEN 'cardToCardReceived'
        WHEN kind = 'card_cancellation' AND own AND amount > 0 THEN 'cardsSweptIn'
        WHEN kind = 'payout_card_to_card' AND own AND amount < 0 THEN 'cardToCardSent'
        WHEN kind = 'payout_bank' AND own AND amount < 0 THEN 'bankAndWalletPayouts'
        WHEN kind = 'payout_b2b' AND business_id = ${businessId} AND own AND amount < 0 THEN 'b2bSent'
        WHEN kind = 'transfer' AND own AND amount < 0 THEN 'topupsSent'
        WHEN kind = 'card_cancellation' AND own AND amount < 0 THEN 'cardsEmptied'
        WHEN kind = 'payout_bank_reversal' AND own AND amount > 0 THEN 'payoutsRefunded'
        WHEN kind = 'transfer_reversal' AND own AND amount > 0 THEN 'topupsReturned'
        WHEN kind = 'payment' AND account_kind = 'fee_revenue' THEN 'feesOnPayments'
        WHEN kind = 'payout_bank_reversal' AND account_kind = 'fee_revenue' THEN 'feesRefunded'
        WHEN account_kind = 'fee_revenue' AND business_id = ${businessId} THEN 'feesOnPayouts'
      END AS col
      FROM lines
    )
    SELECT day, currency, col, sum(abs(amount))::bigint AS total FROM labelled WHERE col IS NOT NULL GROUP BY day, currency, col
    UNION ALL
    SELECT day, currency, 'netChange', sum(amount)::bigint FROM lines WHERE own GROUP BY day, currency
    UNION ALL
    SELECT day, currency, 'trial', sum(amount)::bigint FROM lines GROUP BY day, currency`);
  const out = new Map<string, Record<string, number>>();
  for (const row of r.rows) {
    const key = `${row.day}|${row.currency}`;
    const m = out.get(key) ?? {};
    m[row.col] = Number(row.total);
    out.set(key, m);
  }
  return out;
}

/** The report's figures in the same shape as ledgerSums: bank and wallet payouts together, payments by type together, zeros left out. */
function reportSums(report: ReconciliationReport) {
  const out = new Map<string, Record<string, number>>();
  for (const d of report.days) {
    const f = d.figures;
    const m: Record<string, number> = {
      payments: f.paymentsHosted + f.paymentsWallet,
      deposits: f.deposits,
      b2bReceived: f.b2bReceived,
      topupsDelivered: f.topupsDelivered,
      cardToCardReceived: f.cardToCardReceived,
      cardsSweptIn: f.cardsSweptIn,
      cardToCardSent: f.cardToCardSent,
      bankAndWalletPayouts: f.bankPayouts + f.walletPayouts,
      b2bSent: f.b2bSent,
      topupsSent: f.topupsSent,
      cardsEmptied: f.cardsEmptied,
      payoutsRefunded: f.payoutsRefunded,
      topupsReturned: f.topupsReturned,
      feesOnPayments: f.feesOnPayments,
      feesRefunded: f.feesRefunded,
      feesOnPayouts: f.feesOnPayouts,
    };
    const kept = Object.fromEntries(Object.entries(m).filter(([, v]) => v !== 0));
    kept.netChange = f.netChange;
    kept.trial = f.credits - f.debits;
    out.set(`${d.day}|${d.currency}`, kept);
  }
  return out;
}

const asObject = (m: Map<string, Record<string, number>>) => Object.fromEntries([...m.entries()].sort(([a], [b]) => a.localeCompare(b)));

describe('daily reconciliation', () => {
  let fin: FinanceBusiness;
  let opts: ReconciliationOptions;

  beforeAll(async () => {
    fin = await seedFinanceBusiness('Reconciliation');
    opts = { businessId: fin.biz.id, mode: 'test', timeZone: TZ, from: `${today().slice(0, 8)}01`, to: today() };
  }, 180_000);

  it('every figure equals the ledger’s own sums, and every day reconciles with a trial balance of zero', async () => {
    const report = await reconciliationReport(testDb(), opts);
    expect(asObject(reportSums(report))).toEqual(asObject(await ledgerSums(testDb(), fin.biz.id, opts.from, opts.to)));
    expect(report.days.map((d) => d.currency)).toEqual(['ETB', 'USD']);
    for (const d of report.days) {
      expect(d.problems, `${d.day} ${d.currency}`).toEqual([]);
      expect(d.reconciles).toBe(true);
      expect(d.figures.debits).toBe(d.figures.credits);
      expect(d.figures.debits).toBeGreaterThan(0);
    }
    const etb = report.days.find((d) => d.currency === 'ETB')!.figures;
    // Figures the fixture fixes: the deposit, the top-ups, the failed one's return, a hosted and a wallet payment.
    expect(etb).toMatchObject({
      deposits: 1_000_000,
      topupsSent: 314_000,
      topupsDelivered: 304_000,
      topupsReturned: 10_000,
      paymentsHosted: 20_000,
      paymentsWallet: 5_000,
    });
    expect(etb.walletPayouts).toBeGreaterThanOrEqual(7_000);
    expect(etb.bankPayouts).toBe(25_000 + 2_000);
    // The net change is money in, less money out, plus reversals.
    const f = etb;
    expect(
      f.paymentsHosted +
        f.paymentsWallet +
        f.deposits +
        f.b2bReceived +
        f.topupsDelivered +
        f.cardToCardReceived +
        f.cardsSweptIn -
        (f.cardToCardSent + f.bankPayouts + f.walletPayouts + f.b2bSent + f.topupsSent + f.cardsEmptied) +
        f.payoutsRefunded +
        f.topupsReturned +
        f.otherIn -
        f.otherOut,
    ).toBe(f.netChange);
    expect(report.totals.map((t) => [t.currency, t.reconciles])).toEqual([
      ['ETB', true],
      ['USD', true],
    ]);
  });

  it('cross-checks the ledger against the payouts and payments tables, which agree', async () => {
    const report = await reconciliationReport(testDb(), { ...opts, currency: 'ETB' });
    const day = report.days[0];
    const check = (name: string) => day.checks.find((c) => c.check === name)!;
    const payouts = await testDb().execute<{ net: number; fee: number; n: number }>(sql`
      SELECT sum(CASE WHEN charge_payer IN ('sender', 'customer') THEN amount + service_fee ELSE amount END)::bigint AS net,
             sum(service_fee)::bigint AS fee, count(*)::int AS n
      FROM payouts WHERE business_id = ${fin.biz.id} AND mode = 'test' AND NOT is_ledger_topup AND currency = 'ETB'`);
    expect(check('payout')).toMatchObject({ rows: Number(payouts.rows[0].net), ledger: Number(payouts.rows[0].net), rowsCount: payouts.rows[0].n });
    expect(check('payout').rowsFee).toBe(Number(payouts.rows[0].fee));
    const payments = await testDb().execute<{ amount: number; fee: number }>(sql`
      SELECT sum(amount)::bigint AS amount, sum(service_fee)::bigint AS fee FROM payments
      WHERE business_id = ${fin.biz.id} AND mode = 'test' AND status = 'success' AND currency = 'ETB'`);
    expect(check('payment')).toMatchObject({ rows: Number(payments.rows[0].amount), ledger: Number(payments.rows[0].amount), rowsCount: 2 });
    expect(check('payment').ledgerFee).toBe(Number(payments.rows[0].fee));
    expect(check('topup_sent')).toMatchObject({ rows: 314_000, ledger: 314_000, rowsCount: 3, ledgerCount: 3 });
    expect(check('topup_returned')).toMatchObject({ rows: 10_000, ledger: 10_000 });
    expect(check('payout_refund').rowsCount).toBe(1);
    expect(check('b2b_received')).toMatchObject({ ledger: day.figures.b2bReceived, rows: day.figures.b2bReceived, rowsCount: 1 });
    for (const c of day.checks) expect([c.check, c.ledger, c.ledgerFee]).toEqual([c.check, c.rows, c.rowsFee]);
  });

  it('shows nothing of the partner business or of the other mode', async () => {
    const mine = await reconciliationReport(testDb(), opts);
    const partner = await reconciliationReport(testDb(), { ...opts, businessId: fin.other.id });
    const partnerSums = await ledgerSums(testDb(), fin.other.id, opts.from, opts.to);
    expect(asObject(reportSums(partner))).toEqual(asObject(partnerSums));
    // The partner sent B2B to this business and received one from it; neither's deposit shows in the other's report.
    const etb = (r: ReconciliationReport) => r.days.find((d) => d.currency === 'ETB')!.figures;
    expect(etb(partner).deposits).toBe(100_000);
    expect(etb(mine).deposits).toBe(1_000_000);
    expect(etb(partner).b2bSent).toBeGreaterThan(0);
    expect(etb(partner).b2bReceived).toBeGreaterThan(0);
    // The fee on the B2B payout it received was this business's to pay, not the partner's.
    expect(etb(partner).feesOnPayouts).toBe(0);
    const refs = (r: ReconciliationReport) => r.days.flatMap((d) => d.checks.map((c) => c.check));
    expect(refs(partner)).not.toContain('payment');
    const live = await reconciliationReport(testDb(), { ...opts, mode: 'live' });
    expect(live.days).toEqual([]);
  });

  it('a corrupted entry makes its day fail, naming the transaction and what it is off by', async () => {
    await rolledBack(async (tx) => {
      const target = await tx.execute<{ entry_id: number; transaction_id: number; kind: string }>(sql`
        SELECT e.id AS entry_id, e.transaction_id, t.kind FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
        JOIN payouts p ON p.transaction_id = t.id
        WHERE p.reference = ${fin.references.cardToCard} AND e.amount > 0
          AND e.account_id = (SELECT account_id FROM cards WHERE card_number = ${fin.cards.second})`);
      const { entry_id, transaction_id, kind } = target.rows[0];
      await tx.execute(sql`UPDATE ledger_entries SET amount = amount + 7 WHERE id = ${entry_id}`);
      const report = await reconciliationReport(tx, opts);
      const broken = report.days.filter((d) => !d.reconciles);
      expect(broken.map((d) => [d.day, d.currency])).toEqual([[today(), 'ETB']]);
      const problems = broken[0].problems;
      expect(problems.map((p) => [p.problem, p.transactionId, p.ledgerKind, p.reference, p.offBy])).toEqual([
        ['unbalanced', Number(transaction_id), kind, fin.references.cardToCard, 7],
        ['balance_chain', Number(transaction_id), kind, fin.references.cardToCard, -7],
      ]);
      expect(broken[0].figures.credits - broken[0].figures.debits).toBe(7);
      expect(report.totals.find((t) => t.currency === 'ETB')!.reconciles).toBe(false);
      expect(report.days.find((d) => d.currency === 'USD')!.reconciles).toBe(true);
    });
    // Rolled back: the day reconciles again.
    expect((await reconciliationReport(testDb(), opts)).days.every((d) => d.reconciles)).toBe(true);
  });

  it('an operational row that disagrees with the ledger names the transaction and the difference', async () => {
    await rolledBack(async (tx) => {
      await tx.execute(sql`UPDATE payouts SET service_fee = service_fee + 3 WHERE reference = ${fin.references.bankSettled}`);
      await tx.execute(sql`UPDATE payments SET amount = amount - 100 WHERE link_reference = ${fin.references.paymentHosted}`);
      const report = await reconciliationReport(tx, { ...opts, currency: 'ETB' });
      const problems = report.days[0].problems;
      expect(report.days[0].reconciles).toBe(false);
      const bank = problems.find((p) => p.reference === fin.references.bankSettled)!;
      expect(bank).toMatchObject({ problem: 'rows_differ', ledgerKind: 'payout_bank' });
      expect(bank.detail).toMatch(/fee/);
      const payment = problems.find((p) => p.reference === fin.references.paymentHosted)!;
      expect(payment).toMatchObject({ problem: 'rows_differ', ledgerKind: 'payment', offBy: 100 });
      expect(payment.transactionId).toBeGreaterThan(0);
    });
  });

  it('spread over days: each day’s figures are that day’s ledger sums, and the days add up to the range', async () => {
    await rolledBack(async (tx) => {
      // Every transaction of the business moves back by its rank: a day each, newest today.
      await tx.execute(sql`
        WITH mine AS (
          SELECT t.id, (count(*) OVER () - row_number() OVER (ORDER BY t.id)) % 9 AS back FROM ledger_transactions t
          WHERE t.mode = 'test' AND (t.business_id = ${fin.biz.id} OR t.reference = ${fin.references.b2bReceived})
        ), moved AS (
          UPDATE ledger_transactions t SET created_at = t.created_at - make_interval(days => mine.back::int) FROM mine WHERE mine.id = t.id RETURNING t.id, t.created_at
        )
        UPDATE ledger_entries e SET created_at = moved.created_at FROM moved WHERE e.transaction_id = moved.id`);
      // Operational rows move with their transactions, so the cross-check still holds.
      await tx.execute(
        sql`UPDATE payouts p SET created_at = t.created_at FROM ledger_transactions t WHERE t.id = p.transaction_id AND (p.business_id = ${fin.biz.id} OR p.reference = ${fin.references.b2bReceived})`,
      );
      await tx.execute(sql`UPDATE payouts p SET completed_at = t.created_at FROM ledger_transactions t
        WHERE t.reference = p.reference AND t.kind IN ('transfer_settlement', 'transfer_reversal', 'payout_bank_reversal') AND p.business_id = ${fin.biz.id}`);
      await tx.execute(
        sql`UPDATE payments p SET completed_at = t.created_at, created_at = t.created_at FROM ledger_transactions t WHERE t.id = p.transaction_id AND p.business_id = ${fin.biz.id}`,
      );
      const from = dayIn(TZ, new Date(Date.now() - 12 * 86_400_000));
      const report = await reconciliationReport(tx, { ...opts, from });
      expect(report.days.length).toBeGreaterThan(4);
      expect(asObject(reportSums(report))).toEqual(asObject(await ledgerSums(tx, fin.biz.id, from, today())));
      for (const d of report.days) expect([d.day, d.currency, d.problems]).toEqual([d.day, d.currency, []]);
      for (const t of report.totals) {
        for (const fig of FIGURES) {
          const sum = report.days.filter((d) => d.currency === t.currency).reduce((a, d) => a + d.figures[fig.key], 0);
          expect(t.figures[fig.key]).toBe(sum);
        }
      }
      // A range of one of those days holds only that day.
      const oneDay = report.days[1].day;
      const single = await reconciliationReport(tx, { ...opts, from: oneDay, to: oneDay });
      expect(single.days.map((d) => d.day)).toEqual(report.days.filter((d) => d.day === oneDay).map((d) => d.day));
      expect(single.days.map((d) => d.figures)).toEqual(report.days.filter((d) => d.day === oneDay).map((d) => d.figures));
    });
  });

  it('exports CSV: a line per day and currency, totals last, amounts in units and minor units', async () => {
    const file = await reconciliationCsvFile(testDb(), { ...opts, provider: sandboxProvider });
    let text = file.header;
    for await (const chunk of file.chunks) text += chunk;
    const rows = text
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    const head = rows[0];
    const col = (name: string) => head.indexOf(name);
    expect(head).toContain(`day (${TZ})`);
    const report = await reconciliationReport(testDb(), opts);
    const days = rows.filter((r) => r[0] === 'day');
    const totals = rows.filter((r) => r[0] === 'total');
    expect(days.map((r) => [r[1], r[2], r[col('reconciles')]])).toEqual(report.days.map((d) => [d.day, d.currency, 'yes']));
    expect(totals.map((r) => r[2])).toEqual(['ETB', 'USD']);
    for (const fig of FIGURES) {
      const t = report.totals[0].figures[fig.key];
      expect(Number(totals[0][col(`${fig.csv}_minor`)])).toBe(t);
      expect(totals[0][col(fig.csv)]).toBe(`${t < 0 ? '-' : ''}${Math.floor(Math.abs(t) / 100)}.${String(Math.abs(t) % 100).padStart(2, '0')}`);
    }
  });

  it('reads its choices from the URL, naming a bad one', () => {
    const now = new Date('2026-03-15T10:00:00Z');
    expect(parseReconciliationParams({}, TZ, now)).toMatchObject({ value: { from: '2026-03-01', to: '2026-03-15' }, errors: {} });
    expect(parseReconciliationParams({ from: '2024-01-01', to: '2026-03-01' }, TZ, now).errors.from).toMatch(/366 days/);
    expect(parseReconciliationParams({ currency: 'eur' }, TZ, now).errors.currency).toMatch(/Currency must be/);
    expect(parseReconciliationParams({ currency: 'usd' }, TZ, now).value.currency).toBe('USD');
  });
});

describe('reconciliation across businesses, and days with many problems', () => {
  let fin: FinanceBusiness;
  const day = () => today();
  const rangeOf = (businessId: number): ReconciliationOptions => ({ businessId, mode: 'test', timeZone: TZ, from: daysAgo(9), to: today() });
  const daysAgo = (n: number) => {
    let d = today();
    for (let i = 0; i < n; i++) d = new Date(Date.parse(`${d}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
    return d;
  };

  beforeAll(async () => {
    fin = await seedFinanceBusiness('Reconciliation cross');
    await addCrossBusinessCardToCard(fin);
  }, 180_000);

  it('card-to-card with another business is money in for the receiver and out for the sender, and each net change is its own accounts’ ledger sum', async () => {
    const start = zonedDayStart(day(), TZ);
    const end = zonedDayStart(nextDay(day()), TZ);
    for (const business of [fin.biz, fin.other]) {
      const report = await reconciliationReport(testDb(), rangeOf(business.id));
      const own = await testDb().execute<{ currency: string; net: number }>(sql`
        SELECT e.currency, sum(e.amount)::float8 AS net
        FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE t.mode = 'test' AND t.created_at >= ${start.toISOString()}::timestamptz AND t.created_at < ${end.toISOString()}::timestamptz
          AND (e.account_id IN (SELECT account_id FROM cards WHERE business_id = ${business.id} AND mode = 'test')
            OR e.account_id IN (SELECT id FROM ledger_accounts WHERE name = ${`business:${business.id}`} AND mode = 'test'))
        GROUP BY e.currency ORDER BY e.currency`);
      const days = report.days.filter((d) => d.day === day());
      expect(
        days.map((d) => [d.currency, d.figures.netChange]),
        business.name,
      ).toEqual(own.rows.map((r) => [r.currency, Number(r.net)]));
      const cross = await crossCardToCardFromLedger(testDb(), business.id, start, end);
      const etb = days.find((d) => d.currency === 'ETB')!;
      expect([etb.figures.cardToCardFromOthers, etb.figures.cardToCardToOthers], business.name).toEqual([cross.in('ETB').amount, cross.out('ETB').amount]);
      expect(etb.figures.cardToCardFromOthers + etb.figures.cardToCardToOthers, business.name).toBeGreaterThan(0);
      for (const d of report.days) expect([d.day, d.currency, d.problems, d.reconciles], business.name).toEqual([d.day, d.currency, [], true]);
      const received = etb.checks.find((c) => c.check === 'card_to_card_received')!;
      expect([received.ledger, received.ledgerCount], business.name).toEqual([received.rows, received.rowsCount]);
    }
  });

  it('a day with more problems than are listed, and one with a single problem, both fail', async () => {
    const opts = rangeOf(fin.biz.id);
    await rolledBack(async (tx) => {
      // 600 bank payouts yesterday that never reached the ledger, then one payout today whose fee disagrees with it.
      const noon = new Date(zonedDayStart(daysAgo(1), TZ).getTime() + 12 * 3_600_000).toISOString();
      await tx.execute(sql`
        INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference, actor_type, created_at)
        SELECT ${fin.biz.id}, 'test', 'bank', 'success', 'ETB', 100, 0, 'business', ${`no-ledger-${fin.biz.id}-`} || g, 'api', ${noon}::timestamptz
        FROM generate_series(1, 600) g`);
      await tx.execute(sql`UPDATE payouts SET service_fee = service_fee + 3 WHERE reference = ${fin.references.bankSettled}`);
      const report = await reconciliationReport(tx, opts);
      const failing = report.days.filter((d) => !d.reconciles).map((d) => [d.day, d.currency, d.problemCount]);
      expect(failing).toEqual([
        [daysAgo(1), 'ETB', 600],
        [today(), 'ETB', 1],
      ]);
      expect(report.truncated).toBe(true);
      expect(report.totals.find((t) => t.currency === 'ETB')!.reconciles).toBe(false);
    });
  });
});
