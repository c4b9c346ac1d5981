import { sql, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DbOrTx, Tx } from '../lib/db/client';
import { dayIn } from '../lib/time-zone';
import { breakageEstimates, daysBefore, estimateBreakage, percentText, ratioOf } from '../lib/reports/breakage';
import { AGE_BUCKETS, parseLiabilityParams, type LiabilityOptions } from '../lib/reports/liability/definitions';
import { agedCsvFile } from '../lib/reports/liability/export';
import { dormantCardBatches, dormantCards, liabilityReport } from '../lib/reports/liability/query';
import type { Mode } from '../lib/validation';
import { addCrossBusinessCardToCard, seedFinanceBusiness, type FinanceBusiness } from './finance-fixture';
import { adminClient, createCard, createTestBusiness, randomPhone, rolledBack, testDb, type TestBusiness } from './helpers';
import { fundCard } from './ledger-helpers';

const TZ = 'Africa/Addis_Ababa';
const today = () => dayIn(TZ, new Date());

/** Moves a card's ledger entries (all, or those `where` picks) back in time. */
async function backdate(tx: Tx, cardNumber: string, days: number, where = sql`true`) {
  await tx.execute(sql`UPDATE ledger_entries SET created_at = created_at - make_interval(days => ${days})
    WHERE account_id = (SELECT account_id FROM cards WHERE card_number = ${cardNumber}) AND ${where}`);
}

/**
 * The liability recomputed a second way: the sum of every entry of each card
 * account before the instant, per currency, counting the cards left holding money.
 */
async function summedFromEntries(db: DbOrTx, businessId: number, mode: Mode, before: SQL) {
  const r = await db.execute<{ currency: string; cards: number; balance: number }>(sql`
    SELECT c.currency, count(*) FILTER (WHERE s.balance > 0)::int AS cards, coalesce(sum(s.balance) FILTER (WHERE s.balance > 0), 0)::bigint AS balance
    FROM cards c
    JOIN LATERAL (SELECT coalesce(sum(e.amount), 0) AS balance FROM ledger_entries e WHERE e.account_id = c.account_id AND e.created_at < ${before}) s ON true
    WHERE c.business_id = ${businessId} AND c.mode = ${mode}
    GROUP BY c.currency HAVING count(*) FILTER (WHERE s.balance > 0) > 0 ORDER BY c.currency`);
  return r.rows.map((x) => ({ currency: x.currency, cards: Number(x.cards), balance: Number(x.balance) }));
}

const shape = (report: Awaited<ReturnType<typeof liabilityReport>>) =>
  report.currencies
    .filter((c) => c.cards > 0)
    .map((c) => ({ currency: c.currency, cards: c.cards, balance: c.balance }))
    .sort((a, b) => a.currency.localeCompare(b.currency));

describe('liability and breakage report', () => {
  let fin: FinanceBusiness;
  let opts: LiabilityOptions;

  beforeAll(async () => {
    fin = await seedFinanceBusiness('Liability');
    opts = { businessId: fin.biz.id, mode: 'test', timeZone: TZ, day: today(), dormantDays: 365 };
  }, 180_000);

  it('now: equals the card balances the ledger holds, per currency, and says so', async () => {
    const ledger = await testDb().execute<{ currency: string; cards: number; balance: number }>(sql`
      SELECT currency, count(*) FILTER (WHERE balance > 0)::int AS cards, sum(balance)::bigint AS balance
      FROM ledger_accounts WHERE kind = 'card' AND business_id = ${fin.biz.id} AND mode = 'test' GROUP BY currency ORDER BY currency`);
    const report = await liabilityReport(testDb(), opts);
    expect(report.isToday).toBe(true);
    expect(shape(report)).toEqual(ledger.rows.map((r) => ({ currency: r.currency, cards: Number(r.cards), balance: Number(r.balance) })));
    for (const c of report.currencies) expect(c.ledgerBalanceNow).toBe(c.balance);
    // Main, second and the USD card hold money; the cancelled card was swept to zero.
    expect(report.currencies.map((c) => [c.currency, c.cards])).toEqual([
      ['ETB', 2],
      ['USD', 1],
    ]);
    // Everything moved today: one bucket, no dormant money.
    for (const c of report.currencies) {
      expect(c.buckets[0]).toEqual({ key: '0-30', cards: c.cards, balance: c.balance });
      expect(c.dormantBalance).toBe(0);
    }
  });

  it('at a past instant: equals the entries summed up to it, and the cancelled card still counts', async () => {
    const cancel = await testDb().execute<{ created_at: string }>(
      sql`SELECT created_at::text FROM ledger_transactions WHERE kind = 'card_cancellation' AND reference = ${fin.cards.cancelled}`,
    );
    const sweptAt = cancel.rows[0].created_at;
    const sweptAmount = await testDb().execute<{ amount: number }>(sql`
      SELECT -e.amount AS amount FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
      WHERE t.kind = 'card_cancellation' AND t.reference = ${fin.cards.cancelled} AND e.amount < 0`);
    expect(Number(sweptAmount.rows[0].amount)).toBe(4_000);

    // Just before the sweep (entries strictly before its created_at), then now.
    const before = await liabilityReport(testDb(), { ...opts, at: new Date(sweptAt) });
    expect(shape(before)).toEqual(await summedFromEntries(testDb(), fin.biz.id, 'test', sql`${sweptAt}::timestamptz`));
    const now = await liabilityReport(testDb(), opts);
    const etb = (r: typeof now) => r.currencies.find((c) => c.currency === 'ETB')!;
    expect(etb(before).cards).toBe(etb(now).cards + 1);
    expect(etb(before).balance).toBe(etb(now).balance + 4_000);
  });

  it('at the end of a past calendar day: equals the entries summed up to the end of that day in the zone', async () => {
    const day = daysBefore(today(), 300);
    await rolledBack(async (tx) => {
      // The main card's history moved to five days before that day, the rest stays after it.
      await backdate(tx, fin.cards.main, 305);
      const report = await liabilityReport(tx, { ...opts, day });
      expect(report.isToday).toBe(false);
      const expected = await summedFromEntries(tx, fin.biz.id, 'test', sql`((${day}::date + 1)::timestamp AT TIME ZONE ${TZ})`);
      expect(shape(report)).toEqual(expected);
      expect(expected).toEqual([expect.objectContaining({ currency: 'ETB', cards: 1 })]);
      const main = await tx.execute<{ balance: number }>(
        sql`SELECT a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.card_number = ${fin.cards.main}`,
      );
      expect(report.currencies[0].balance).toBe(Number(main.rows[0].balance));
      // Five days after its last movement.
      expect(report.currencies[0].buckets[0].cards).toBe(1);
    });
  });

  it('ages by last movement: each card in its bucket, and the buckets add up to the total', async () => {
    await rolledBack(async (tx) => {
      await backdate(tx, fin.cards.main, 400);
      await backdate(tx, fin.cards.second, 100);
      const report = await liabilityReport(tx, opts);
      const balances = await tx.execute<{ card_number: string; balance: number }>(sql`
        SELECT c.card_number, a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.business_id = ${fin.biz.id}`);
      const bal = (n: string) => Number(balances.rows.find((r) => r.card_number === n)!.balance);
      for (const c of report.currencies) {
        expect(c.buckets.reduce((s, b) => s + b.cards, 0)).toBe(c.cards);
        expect(c.buckets.reduce((s, b) => s + b.balance, 0)).toBe(c.balance);
        expect(c.ledgerBalanceNow).toBe(c.balance);
      }
      const etb = report.currencies.find((c) => c.currency === 'ETB')!;
      const bucket = (key: string) => etb.buckets.find((b) => b.key === key)!;
      expect(bucket('over-365')).toEqual({ key: 'over-365', cards: 1, balance: bal(fin.cards.main) });
      expect(bucket('91-180')).toEqual({ key: '91-180', cards: 1, balance: bal(fin.cards.second) });
      expect(etb.dormantBalance).toBe(bal(fin.cards.main));
      const usd = report.currencies.find((c) => c.currency === 'USD')!;
      expect(usd.buckets[0]).toEqual({ key: '0-30', cards: 1, balance: bal(fin.cards.usd) });

      // The aged CSV carries the same figures, a total line per currency.
      const file = await agedCsvFile(tx, opts);
      let text = file.header;
      for await (const chunk of file.chunks) text += chunk;
      const lines = text.trim().split('\r\n');
      expect(lines[0]).toBe(`as_of_end_of_day (${TZ}),currency,days_since_last_activity,days_from,days_to,cards,balance,balance_minor`);
      expect(lines).toContain(`${opts.day},ETB,over-365,366,,1,${(bal(fin.cards.main) / 100).toFixed(2)},${bal(fin.cards.main)}`);
      expect(lines).toContain(`${opts.day},ETB,total,,,${etb.cards},${(etb.balance / 100).toFixed(2)},${etb.balance}`);
      expect(lines).toHaveLength(1 + report.currencies.length * (AGE_BUCKETS.length + 1));
    });
  });

  it("lists dormant cards of this business and mode only, with this business's names", async () => {
    const phone = randomPhone();
    // The partner names the holder first; this business then makes a card for the same phone without a name.
    const partnerCard = await fin.other.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Partner', last_name: 'Given' });
    expect(partnerCard.status).toBe(201);
    const unnamed = await fin.biz.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB' });
    expect(unnamed.status).toBe(201);
    await fundCard(unnamed.body.data.card_number, 1_500);
    await fundCard(partnerCard.body.data.card_number, 2_500);
    const live = await createCard(fin.biz.live);
    await fundCard(live.card_number, 700);

    await rolledBack(async (tx) => {
      await tx.execute(sql`UPDATE ledger_entries SET created_at = created_at - interval '400 days'
        WHERE account_id IN (SELECT account_id FROM cards WHERE business_id IN (${fin.biz.id}, ${fin.other.id}))`);
      const page = await dormantCards(tx, { ...opts, limit: 2 });
      const all = [...page.items];
      let next = page.next;
      while (next) {
        const more = await dormantCards(tx, { ...opts, limit: 2, after: next });
        all.push(...more.items);
        next = more.next;
      }
      const owned = await tx.execute<{ card_number: string }>(sql`
        SELECT c.card_number FROM cards c JOIN ledger_accounts a ON a.id = c.account_id
        WHERE c.business_id = ${fin.biz.id} AND c.mode = 'test' AND a.balance > 0`);
      expect(all.map((c) => c.cardNumber).sort()).toEqual(owned.rows.map((r) => r.card_number).sort());
      expect(all.map((c) => c.cardNumber)).not.toContain(partnerCard.body.data.card_number);
      expect(all.map((c) => c.cardNumber)).not.toContain(live.card_number);
      expect(all.map((c) => c.cardNumber)).not.toContain(fin.cards.cancelled);
      // By currency, then largest balance first.
      const keys = all.map((c) => [c.currency, -c.balance] as const);
      expect(keys).toEqual([...keys].sort((a, b) => a[0].localeCompare(b[0]) || a[1] - b[1]));
      const mine = all.find((c) => c.cardNumber === unnamed.body.data.card_number)!;
      expect(mine).toMatchObject({ balance: 1_500, holderName: '' });
      expect(all.find((c) => c.cardNumber === fin.cards.main)!.holderName).toBe('Test Holder');
      expect(all.every((c) => c.daysSinceActivity > 365)).toBe(true);

      // Paging back from the last page returns the same rows.
      const second = await dormantCards(tx, { ...opts, limit: 2, after: page.next! });
      const back = await dormantCards(tx, { ...opts, limit: 2, before: second.prev! });
      expect(back.items.map((c) => c.id)).toEqual(page.items.map((c) => c.id));
      expect(back.prev).toBeNull();

      // The currency filter and the export's batches read the same list.
      const usd = await dormantCards(tx, { ...opts, currency: 'USD', limit: 25 });
      expect(usd.items.map((c) => c.cardNumber)).toEqual([fin.cards.usd]);
      const batches: string[] = [];
      for await (const b of dormantCardBatches(tx, opts, 2)) batches.push(...b.map((c) => c.cardNumber));
      expect(batches).toEqual(all.map((c) => c.cardNumber));

      // Live mode sees its own card only.
      const liveList = await dormantCards(tx, { ...opts, mode: 'live', limit: 25 });
      expect(liveList.items.map((c) => c.cardNumber)).toEqual([live.card_number]);
      // The partner's list never shows this business's cards, and keeps the name it gave.
      const partner = await dormantCards(tx, { ...opts, businessId: fin.other.id, limit: 25 });
      expect(partner.items.map((c) => c.cardNumber)).not.toContain(unnamed.body.data.card_number);
      expect(partner.items.find((c) => c.cardNumber === partnerCard.body.data.card_number)?.holderName).toBe('Partner Given');
    });
  });
});

describe('breakage estimate', () => {
  let biz: TestBusiness;
  const cards: Record<'a' | 'b' | 'c', string> = { a: '', b: '', c: '' };

  async function topUp(cardNumber: string, amount: number) {
    const t = await biz.test.post('/api/v1/transfers', { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Float' });
    expect(t.status).toBe(200);
    const s = await biz.test.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
    expect(s.status).toBe(200);
  }

  beforeAll(async () => {
    biz = await createTestBusiness('Breakage history');
    expect((await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 1_000_000 })).status).toBe(200);
    for (const k of ['a', 'b', 'c'] as const) cards[k] = (await createCard(biz.test)).card_number;
    await topUp(cards.a, 100_000);
    await topUp(cards.b, 50_000);
    await topUp(cards.c, 30_000);
    const spend = await biz.test.post('/api/v1/card/payouts', {
      card_number: cards.a,
      amount: 40_000,
      bank_slug: 'cbe',
      account_number: '1000123456123',
      account_name: 'Abebe',
    });
    expect(spend.status).toBeLessThan(300);
    const move = await biz.test.post('/api/v1/card/payouts', { card_number: cards.b, destination_card_number: cards.c, amount: 10_000 });
    expect(move.status).toBeLessThan(300);
  }, 120_000);

  const options = (): LiabilityOptions => ({ businessId: biz.id, mode: 'test', timeZone: TZ, day: today(), dormantDays: 365 });

  it('says the history is too short when no value is older than the window', async () => {
    const report = await liabilityReport(testDb(), options());
    const [etb] = await breakageEstimates(testDb(), options(), report);
    expect(etb).toMatchObject({ currency: 'ETB', loadedBefore: 0, rate: null, expected: null });
    expect(etb.firstLoadAt).toBeInstanceOf(Date);
  });

  it('on a backdated history: the unspent share of old loads, applied to the liability', async () => {
    await rolledBack(async (tx) => {
      // Card a was loaded and spent from 400 days ago and never moved since: dormant.
      await backdate(tx, cards.a, 400);
      // Card b was loaded 400 days ago but sent money to c this week: active. c is all recent.
      await backdate(tx, cards.b, 400, sql`amount > 0`);
      const report = await liabilityReport(tx, options());
      const estimates = await breakageEstimates(tx, options(), report);
      const ledger = await tx.execute<{ card_number: string; balance: number }>(sql`
        SELECT c.card_number, a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.business_id = ${biz.id}`);
      const bal = (n: string) => Number(ledger.rows.find((r) => r.card_number === n)!.balance);
      const liability = bal(cards.a) + bal(cards.b) + bal(cards.c);
      expect(bal(cards.a)).toBeGreaterThan(0);
      // Loads before the window: a's and b's top-ups (150,000); the card-to-card credit to c is not new value.
      expect(estimates).toEqual([
        expect.objectContaining({
          currency: 'ETB',
          loadedBefore: 150_000,
          dormantBalance: bal(cards.a),
          liability,
          rate: { unspent: bal(cards.a), loaded: 150_000 },
          expected: Math.round((liability * bal(cards.a)) / 150_000),
        }),
      ]);
      // No fee rules on this business: a holds 60,000 of the 150,000 loaded before the window, 40%.
      expect(bal(cards.a)).toBe(60_000);
      expect(percentText(estimates[0].rate!)).toBe('40.0%');
      expect(estimates[0].expected).toBe(Math.round((liability * 2) / 5));
    });
  });

  it('rounds half up in integers', () => {
    expect(ratioOf(1, 1, 2)).toBe(1);
    expect(ratioOf(3, 1, 3)).toBe(1);
    expect(ratioOf(9_007_199_254_740_991, 1, 3)).toBe(3_002_399_751_580_330);
    expect(percentText({ unspent: 1, loaded: 3 })).toBe('33.3%');
    expect(percentText({ unspent: 2, loaded: 3 })).toBe('66.7%');
    const report = { asOf: { day: '2026-10-31', end: new Date() }, dormantDays: 365, currencies: [] };
    expect(estimateBreakage(report, [{ currency: 'USD', loadedBefore: 0, firstLoadAt: null }])[0]).toMatchObject({ windowStartDay: '2025-10-31', rate: null });
  });
});

describe('report options from the URL', () => {
  const now = new Date('2026-11-24T08:00:00Z');
  it('defaults to today and a year, and names each bad value', () => {
    expect(parseLiabilityParams({}, TZ, now)).toEqual({ value: { day: '2026-11-24', dormantDays: 365 }, errors: {} });
    expect(parseLiabilityParams({ day: '2026-10-31', dormant: '90', currency: 'usd' }, TZ, now).value).toMatchObject({
      day: '2026-10-31',
      dormantDays: 90,
      currency: 'USD',
    });
    const bad = parseLiabilityParams({ day: '2026-02-30', dormant: '1.5', currency: 'EUR' }, TZ, now);
    expect(Object.keys(bad.errors).sort()).toEqual(['currency', 'day', 'dormant']);
    expect(bad.value).toMatchObject({ day: '2026-11-24', dormantDays: 365 });
    expect(parseLiabilityParams({ day: '2026-11-25' }, TZ, now).errors.day).toMatch(/after today/);
    expect(parseLiabilityParams({ dormant: '0' }, TZ, now).errors.dormant).toMatch(/1 to 3650/);
  });
});

describe('breakage with card-to-card across businesses', () => {
  let fin: FinanceBusiness;

  beforeAll(async () => {
    fin = await seedFinanceBusiness('Breakage cross');
    await addCrossBusinessCardToCard(fin);
  }, 180_000);

  it('counts value received from another business as loaded and value sent to one as gone: both rates stay within 0 and 1', async () => {
    await rolledBack(async (tx) => {
      // Every movement of both businesses' cards 400 days ago: all of it before the window, every card holding money dormant.
      for (const business of [fin.biz, fin.other]) {
        await tx.execute(sql`UPDATE ledger_entries SET created_at = created_at - interval '400 days'
          WHERE account_id IN (SELECT account_id FROM cards WHERE business_id = ${business.id} AND mode = 'test')`);
      }
      for (const business of [fin.biz, fin.other]) {
        const opts: LiabilityOptions = { businessId: business.id, mode: 'test', timeZone: TZ, day: today(), dormantDays: 365 };
        const report = await liabilityReport(tx, opts);
        const estimates = await breakageEstimates(tx, opts, report);
        // Written apart: every entry on the business's cards, grouped by what it was.
        const ledger = await tx.execute<{ currency: string; loaded: number; held: number }>(sql`
          WITH own AS (SELECT account_id FROM cards WHERE business_id = ${business.id} AND mode = 'test'),
          lines AS (
            SELECT e.currency, e.amount, t.kind, t.business_id,
              EXISTS (SELECT 1 FROM ledger_entries o WHERE o.transaction_id = t.id AND o.amount > 0 AND o.account_id IN (SELECT account_id FROM own)) AS credits_own
            FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
            WHERE e.account_id IN (SELECT account_id FROM own)
          )
          SELECT currency,
            coalesce(sum(amount) FILTER (WHERE (kind IN ('transfer_settlement', 'payment', 'test_funding') AND amount > 0)
              OR (kind = 'payout_card_to_card' AND business_id <> ${business.id} AND amount > 0)
              OR (kind = 'payout_card_to_card' AND business_id = ${business.id} AND amount < 0 AND NOT credits_own)), 0)::float8 AS loaded,
            sum(amount)::float8 AS held
          FROM lines GROUP BY currency ORDER BY currency`);
        for (const row of ledger.rows) {
          const e = estimates.find((x) => x.currency === row.currency)!;
          expect([e.loadedBefore, e.dormantBalance], `${business.name} ${row.currency}`).toEqual([Number(row.loaded), Number(row.held)]);
          expect(e.rate, `${business.name} ${row.currency}`).not.toBeNull();
          expect(e.rate!.unspent, `${business.name} ${row.currency}`).toBeGreaterThanOrEqual(0);
          expect(e.rate!.unspent, `${business.name} ${row.currency}`).toBeLessThanOrEqual(e.rate!.loaded);
        }
        expect(ledger.rows.map((r) => r.currency)).toContain('ETB');
      }
      // A download stopped after its first batch closes its cursor: the next export in the same transaction reads all.
      const opts: LiabilityOptions = { businessId: fin.biz.id, mode: 'test', timeZone: TZ, day: today(), dormantDays: 365 };
      const stopped = dormantCardBatches(tx, opts, 1);
      expect((await stopped.next()).value).toHaveLength(1);
      await stopped.return(undefined);
      expect((await stopped.next()).done).toBe(true);
      const whole: string[] = [];
      for await (const batch of dormantCardBatches(tx, opts, 1)) whole.push(...batch.map((c) => c.cardNumber));
      expect(whole).toEqual((await dormantCards(tx, { ...opts, limit: 100 })).items.map((c) => c.cardNumber));
      expect(whole.length).toBeGreaterThan(1);
    });
  });
});
