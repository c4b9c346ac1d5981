import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx, Tx } from '../lib/db/client';
import { dayIn, nextDay, zonedDayStart } from '../lib/time-zone';
import {
  businessAccount,
  parseStatementParams,
  statementBatches,
  statementCsvFile,
  statementCurrencies,
  statementPage,
  statementSummary,
  type StatementOptions,
} from '../lib/reports/business-statement';
import type { Currency } from '../lib/validation';
import { seedFinanceBusiness, type FinanceBusiness } from './finance-fixture';
import { rolledBack, testDb } from './helpers';

const TZ = 'Africa/Addis_Ababa';
const today = () => dayIn(TZ, new Date());

async function accountOf(db: DbOrTx, businessId: number, currency: Currency) {
  const r = await db.execute<{ id: number; balance: number }>(sql`
    SELECT id, balance FROM ledger_accounts WHERE kind = 'business' AND business_id = ${businessId} AND mode = 'test' AND currency = ${currency}`);
  return { id: Number(r.rows[0].id), balance: Number(r.rows[0].balance) };
}

/** The expected figures, summed a second way: straight over the account's entries by their time, no balance chain. */
async function summedFromEntries(db: DbOrTx, accountId: number, from: string, to: string, kind?: string) {
  const start = zonedDayStart(from, TZ).toISOString();
  const end = zonedDayStart(nextDay(to), TZ).toISOString();
  const kindFilter = kind ? sql`AND t.kind = ${kind}` : sql``;
  const r = await db.execute<{ opening: number; closing: number; money_in: number; money_out: number; lines: number }>(sql`
    SELECT
      (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE account_id = ${accountId} AND created_at < ${start}::timestamptz)::bigint AS opening,
      (SELECT coalesce(sum(amount), 0) FROM ledger_entries WHERE account_id = ${accountId} AND created_at < ${end}::timestamptz)::bigint AS closing,
      (SELECT coalesce(sum(e.amount), 0) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE e.account_id = ${accountId} AND e.amount > 0 AND e.created_at >= ${start}::timestamptz AND e.created_at < ${end}::timestamptz ${kindFilter})::bigint AS money_in,
      (SELECT coalesce(-sum(e.amount), 0) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE e.account_id = ${accountId} AND e.amount < 0 AND e.created_at >= ${start}::timestamptz AND e.created_at < ${end}::timestamptz ${kindFilter})::bigint AS money_out,
      (SELECT count(*) FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
        WHERE e.account_id = ${accountId} AND e.created_at >= ${start}::timestamptz AND e.created_at < ${end}::timestamptz ${kindFilter})::bigint AS lines`);
  const x = r.rows[0];
  return { opening: Number(x.opening), closing: Number(x.closing), moneyIn: Number(x.money_in), moneyOut: Number(x.money_out), lines: Number(x.lines) };
}

/**
 * Spreads the account's entries over past days, oldest first, as if they had
 * happened over two weeks: their order (and so the balance chain) stays the same.
 */
async function spreadOverDays(tx: Tx, accountId: number) {
  await tx.execute(sql`
    WITH ranked AS (
      SELECT transaction_id, (count(*) OVER () - row_number() OVER (ORDER BY id)) AS back FROM ledger_entries WHERE account_id = ${accountId}
    )
    UPDATE ledger_entries e SET created_at = e.created_at - make_interval(days => ranked.back::int)
    FROM ranked WHERE e.transaction_id = ranked.transaction_id`);
  await tx.execute(sql`
    UPDATE ledger_transactions t SET created_at = e.created_at FROM ledger_entries e
    WHERE e.transaction_id = t.id AND e.account_id = ${accountId}`);
}

const pick = ({ opening, closing, moneyIn, moneyOut, lines }: { opening: number; closing: number; moneyIn: number; moneyOut: number; lines: number }) => ({
  opening,
  closing,
  moneyIn,
  moneyOut,
  lines,
});

describe('business account statement', () => {
  let fin: FinanceBusiness;
  let base: Omit<StatementOptions, 'currency'>;

  beforeAll(async () => {
    fin = await seedFinanceBusiness('Statement');
    base = { businessId: fin.biz.id, mode: 'test', timeZone: TZ, from: `${today().slice(0, 8)}01`, to: today() };
  }, 180_000);

  it('finds the business account by its unique name index, reading one ledger_accounts row, not every card account', async () => {
    await rolledBack(async (tx) => {
      // Per-transaction counters of the rows this transaction read from ledger_accounts, by scan or by index.
      const rowsRead = async () => {
        const r = await tx.execute<{ n: number }>(sql`
          SELECT (coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0))::int AS n FROM pg_stat_xact_user_tables WHERE relname = 'ledger_accounts'`);
        return Number(r.rows[0]?.n ?? 0);
      };
      // Card accounts of a business with many cards, as a real provider's table holds.
      await tx.execute(sql`
        INSERT INTO ledger_accounts (kind, business_id, mode, currency, name)
        SELECT 'card', ${fin.biz.id}, 'test', 'ETB', ${`statement-scan-${fin.biz.id}-`} || g FROM generate_series(1, 5000) g`);
      await tx.execute(sql`ANALYZE ledger_accounts`);
      const total = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ledger_accounts`);
      const expected = await accountOf(tx, fin.biz.id, 'ETB');
      const before = await rowsRead();
      const found = await businessAccount(tx, { businessId: fin.biz.id, mode: 'test', currency: 'ETB' });
      const afterOne = await rowsRead();
      expect(found?.id).toBe(expected.id);
      expect(await statementCurrencies(tx, { businessId: fin.biz.id, mode: 'test' })).toEqual(['ETB', 'USD']);
      const afterCurrencies = await rowsRead();
      // The table holds every card account of every business.
      expect(Number(total.rows[0].n)).toBeGreaterThan(5000);
      expect(afterOne - before).toBeLessThanOrEqual(2);
      expect(afterCurrencies - afterOne).toBeLessThanOrEqual(2);
    });
  });

  it('this month: the closing balance is the account balance, and opening + in - out = closing, to the ledger’s own sums', async () => {
    expect(await statementCurrencies(testDb(), { businessId: fin.biz.id, mode: 'test' })).toEqual(['ETB', 'USD']);
    for (const currency of ['ETB', 'USD'] as const) {
      const account = await accountOf(testDb(), fin.biz.id, currency);
      const s = await statementSummary(testDb(), { ...base, currency });
      expect(s.accountId).toBe(account.id);
      expect(s.closing).toBe(account.balance);
      expect(s.balanceNow).toBe(account.balance);
      expect(s.opening + s.moneyIn - s.moneyOut).toBe(s.closing);
      expect(pick(s)).toEqual(await summedFromEntries(testDb(), account.id, base.from, base.to));
    }
    // The fixture's ETB account: a deposit of 10,000.00, 3,000.00 + 100.00 + 40.00 of top-ups out, the failed one back,
    // the cancelled card's balance and the partner's B2B payout in.
    const etb = await statementSummary(testDb(), { ...base, currency: 'ETB' });
    expect(etb.opening).toBe(0);
    expect(etb.moneyOut).toBe(300_000 + 10_000 + 4_000);
    expect(etb.lines).toBe(7);
  });

  it('lists every movement in entry order with its balance after, described by kind and counterpart', async () => {
    const account = await accountOf(testDb(), fin.biz.id, 'ETB');
    const page = await statementPage(testDb(), { ...base, currency: 'ETB', limit: 50 });
    const entries = await testDb().execute<{ id: number; amount: number; balance_after: number; kind: string }>(sql`
      SELECT e.id, e.amount, e.balance_after, t.kind FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE e.account_id = ${account.id} ORDER BY e.id`);
    expect(page.lines.map((l) => [l.entryId, l.amount, l.balanceAfter, l.ledgerKind])).toEqual(
      entries.rows.map((e) => [Number(e.id), Number(e.amount), Number(e.balance_after), e.kind]),
    );
    const byKind = Object.fromEntries(page.lines.map((l) => [l.kind, l]));
    expect(Object.keys(byKind).sort()).toEqual(['b2b_received', 'card_swept', 'deposit', 'topup', 'topup_returned']);
    expect(byKind.deposit.description).toBe('Deposit to the business account');
    expect(byKind.topup_returned.cardNumber).toBe(fin.cards.second);
    expect(byKind.topup_returned.reference).toBe(fin.references.topupReversed);
    expect(byKind.card_swept.cardNumber).toBe(fin.cards.cancelled);
    expect(page.lines.find((l) => l.reference === fin.references.topupSettled)?.description).toBe(`Top-up paid to card ${fin.cards.main}`);
    // B2B received: the paying business by name, the payout by reference, nothing of its cards or holders.
    const b2b = byKind.b2b_received;
    expect(b2b.reference).toBe(fin.references.b2bReceived);
    expect(b2b.payerName).toBe(fin.other.name);
    expect(b2b.description).toBe(`Business payout received from ${fin.other.name}`);
    expect(b2b.cardNumber).toBeNull();
    expect(JSON.stringify(b2b)).not.toMatch(/Holder/);
    expect(JSON.stringify(page)).not.toContain(
      (
        await testDb().execute<{ n: string }>(sql`
      SELECT card_number AS n FROM cards WHERE business_id = ${fin.other.id} LIMIT 1`)
      ).rows[0].n,
    );
  });

  it('pages by keyset both ways without gaps or repeats', async () => {
    const all = (await statementPage(testDb(), { ...base, currency: 'ETB', limit: 50 })).lines.map((l) => l.entryId);
    const seen: number[] = [];
    let page = await statementPage(testDb(), { ...base, currency: 'ETB', limit: 2 });
    expect(page.prev).toBeNull();
    for (;;) {
      seen.push(...page.lines.map((l) => l.entryId));
      if (!page.next) break;
      page = await statementPage(testDb(), { ...base, currency: 'ETB', limit: 2, after: page.next });
    }
    expect(seen).toEqual(all);
    const back: number[] = [];
    for (;;) {
      back.unshift(...page.lines.map((l) => l.entryId));
      if (!page.prev) break;
      page = await statementPage(testDb(), { ...base, currency: 'ETB', limit: 2, before: page.prev });
    }
    expect(back).toEqual(all);
  });

  it('any range of days: opening + in - out = closing, each equal to the entries summed by time', async () => {
    await rolledBack(async (tx) => {
      const account = await accountOf(tx, fin.biz.id, 'ETB');
      await spreadOverDays(tx, account.id);
      const days: string[] = [];
      for (let d = dayIn(TZ, new Date(Date.now() - 10 * 86_400_000)); d <= today(); d = nextDay(d)) days.push(d);
      const ranges = [
        ...days.map((d) => [d, d]),
        [days[0], days[3]],
        [days[2], today()],
        [days[5], days[6]],
        ['2020-01-01', '2020-01-31'],
        ['2020-01-01', today()],
      ];
      for (const [from, to] of ranges) {
        const s = await statementSummary(tx, { ...base, currency: 'ETB', from, to });
        expect(pick(s), `${from}..${to}`).toEqual(await summedFromEntries(tx, account.id, from, to));
        expect(s.opening + s.moneyIn - s.moneyOut).toBe(s.closing);
        const lines = (await statementPage(tx, { ...base, currency: 'ETB', from, to, limit: 100 })).lines;
        expect(lines.length).toBe(s.lines);
        if (lines.length) expect(lines.at(-1)!.balanceAfter).toBe(s.closing);
        for (const l of lines) expect(dayIn(TZ, l.at) >= from && dayIn(TZ, l.at) <= to).toBe(true);
      }
      const whole = await statementSummary(tx, { ...base, currency: 'ETB', from: '2020-01-01', to: today() });
      expect(whole.closing).toBe(account.balance);
      expect(whole.opening).toBe(0);
    });
  });

  it('a kind filter totals that kind only; the opening and closing balances stay the account’s', async () => {
    const account = await accountOf(testDb(), fin.biz.id, 'ETB');
    const all = await statementSummary(testDb(), { ...base, currency: 'ETB' });
    for (const [kind, ledgerKind] of [
      ['topup', 'transfer'],
      ['b2b_received', 'payout_b2b'],
      ['deposit', 'business_deposit'],
    ] as const) {
      const s = await statementSummary(testDb(), { ...base, currency: 'ETB', kind });
      const expected = await summedFromEntries(testDb(), account.id, base.from, base.to, ledgerKind);
      expect(pick(s)).toEqual(expected);
      expect([s.opening, s.closing]).toEqual([all.opening, all.closing]);
      const lines = (await statementPage(testDb(), { ...base, currency: 'ETB', kind, limit: 50 })).lines;
      expect(lines.every((l) => l.ledgerKind === ledgerKind)).toBe(true);
      expect(lines.length).toBe(s.lines);
    }
    expect((await statementSummary(testDb(), { ...base, currency: 'ETB', kind: 'payment' })).lines).toBe(0);
  });

  it('shows nothing of another business or the other mode', async () => {
    const partner = await statementPage(testDb(), { ...base, businessId: fin.other.id, currency: 'ETB', limit: 50 });
    const partnerAccount = await accountOf(testDb(), fin.other.id, 'ETB');
    const mine = await accountOf(testDb(), fin.biz.id, 'ETB');
    expect(partner.lines.length).toBeGreaterThan(0);
    const mineIds = (await statementPage(testDb(), { ...base, currency: 'ETB', limit: 50 })).lines.map((l) => l.entryId);
    expect(partner.lines.some((l) => mineIds.includes(l.entryId))).toBe(false);
    const partnerSummary = await statementSummary(testDb(), { ...base, businessId: fin.other.id, currency: 'ETB' });
    expect(partnerSummary.closing).toBe(partnerAccount.balance);
    expect(partnerSummary.accountId).not.toBe(mine.id);
    // The partner's statement shows the B2B payout this business sent it, naming this business and nothing of its cards.
    const received = partner.lines.filter((l) => l.kind === 'b2b_received');
    expect(received.map((l) => [l.reference, l.payerName])).toEqual([[fin.references.b2bSent, fin.biz.name]]);
    expect(JSON.stringify(partner)).not.toContain(fin.cards.main);
    const live = await statementSummary(testDb(), { ...base, mode: 'live', currency: 'ETB' });
    expect(live).toMatchObject({ accountId: null, opening: 0, closing: 0, lines: 0 });
    expect((await statementPage(testDb(), { ...base, mode: 'live', currency: 'ETB', limit: 50 })).lines).toEqual([]);
    expect(await statementCurrencies(testDb(), { businessId: fin.biz.id, mode: 'live' })).toEqual([]);
  });

  it('exports CSV: the opening line first, every movement, the closing line with the totals last', async () => {
    const opts = { ...base, currency: 'ETB' as const };
    const file = await statementCsvFile(testDb(), opts);
    let text = file.header;
    for await (const chunk of file.chunks) text += chunk;
    const rows = text
      .trim()
      .split('\r\n')
      .map((l) => l.split(','));
    const head = rows[0];
    expect(head).toContain(`time (${TZ})`);
    const col = (name: string) => head.indexOf(name);
    const s = await statementSummary(testDb(), opts);
    expect(rows[1][col('line')]).toBe('opening');
    expect(Number(rows[1][col('balance_after_minor')])).toBe(s.opening);
    const last = rows.at(-1)!;
    expect(last[col('line')]).toBe('closing');
    expect(Number(last[col('balance_after_minor')])).toBe(s.closing);
    expect(Number(last[col('money_in_minor')])).toBe(s.moneyIn);
    expect(Number(last[col('money_out_minor')])).toBe(s.moneyOut);
    const moves = rows.slice(2, -1);
    expect(moves.length).toBe(s.lines);
    const sum = (name: string) => moves.reduce((a, r) => a + Number(r[col(name)] || 0), 0);
    expect(sum('money_in_minor')).toBe(s.moneyIn);
    expect(sum('money_out_minor')).toBe(s.moneyOut);
    expect(moves.at(-1)![col('balance_after')]).toBe(`${Math.floor(s.closing / 100)}.${String(s.closing % 100).padStart(2, '0')}`);
    let batched = 0;
    for await (const batch of statementBatches(testDb(), opts, 2)) batched += batch.length;
    expect(batched).toBe(s.lines);
  });

  it('reads its choices from the URL, naming a bad one', () => {
    const now = new Date('2026-03-15T10:00:00Z');
    expect(parseStatementParams({}, TZ, ['USD'], now)).toMatchObject({ value: { from: '2026-03-01', to: '2026-03-15', currency: 'USD' }, errors: {} });
    const bad = parseStatementParams({ from: '2026-02-30', to: '2026-04-01', currency: 'XYZ', kind: 'nope' }, TZ, ['ETB'], now);
    expect(Object.keys(bad.errors).sort()).toEqual(['currency', 'from', 'kind', 'to']);
    expect(bad.value).toMatchObject({ from: '2026-03-01', to: '2026-03-15', currency: 'ETB' });
    expect(parseStatementParams({ from: '2026-03-10', to: '2026-03-02' }, TZ, [], now).errors.from).toMatch(/after the last/);
  });
});
