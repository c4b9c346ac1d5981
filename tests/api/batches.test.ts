import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { createTestBusiness, randomPhone, testDb, type ApiClient, type TestBusiness } from '../helpers';
import { asItem, createdTimes, expectSameAsSingles, payoutsBatch, setUp, stateOf, type Item } from './batch-twins';
import { cardBalance, setFees } from './payouts-fixtures';

const cardsBatch = (client: ApiClient, cards: unknown, headers?: Record<string, string>) => client.post('/api/v1/card/batch', { cards }, { headers });

async function countRows(table: 'cards' | 'payouts', businessId: number): Promise<number> {
  const r = await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE business_id = ${businessId}`);
  return r.rows[0].n;
}

describe('POST /card/batch', () => {
  let biz: TestBusiness;
  let twin: TestBusiness;

  beforeAll(async () => {
    [biz, twin] = await Promise.all([createTestBusiness('Card batch'), createTestBusiness('Card batch, sent singly')]);
  });

  it('answers each item in order as POST /card would have, one bad row failing nothing else', async () => {
    const [known, fresh, unnamed] = [randomPhone(), randomPhone(), randomPhone()];
    const items = (p: { known: string; fresh: string; unnamed: string }) => [
      { phone_number: p.fresh, currency: 'ETB', first_name: 'Almaz', last_name: 'Tesfaye' },
      { phone_number: p.fresh, currency: 'ETB' },
      { phone_number: p.fresh, currency: 'USD' },
      { phone_number: p.unnamed, currency: 'ETB' },
      { phone_number: '0911234567', currency: 'ETB', first_name: 'Local' },
      { phone_number: p.known, currency: 'EUR', first_name: 'Euro' },
      42,
      { phone_number: p.known, currency: 'DJF', first_name: 'x'.repeat(101) },
      { phone_number: p.known, currency: 'UGX', first_name: 'Kato' },
    ];
    const res = await cardsBatch(biz.test, items({ known, fresh, unnamed }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', message: 'Gift card batch processed' });
    const results = res.body.data.results;
    expect(results).toHaveLength(9);

    // The same items sent one by one (to another business, with their own new phones) answer the same, item for item.
    const twinPhones = { known: randomPhone(), fresh: randomPhone(), unnamed: randomPhone() };
    const singles = [];
    for (const item of items(twinPhones)) {
      singles.push(asItem(await twin.test.post('/api/v1/card', typeof item === 'object' ? item : undefined, { raw: JSON.stringify(item) })));
    }
    const comparable = (r: Record<string, unknown>) =>
      r.status === 'error' ? r : { name: r.name, currency: r.currency, status: r.status, available_amount: r.available_amount, held_amount: r.held_amount };
    expect(results.map(comparable)).toEqual(singles.map(comparable));

    expect(results.map((r: { status: unknown; message?: string }) => (r.status === 'error' ? r.message : 'card'))).toEqual([
      'card',
      'Gift card already exists',
      'card',
      'User not found',
      'Invalid phone number',
      'Validation error',
      'Validation error',
      'Validation error',
      'card',
    ]);
    expect(results[0]).toMatchObject({ name: 'Almaz Tesfaye', currency: 'ETB', status: 1, available_amount: 0, business_id: biz.id });
    expect(results[2]).toMatchObject({ name: 'Almaz Tesfaye', currency: 'USD' });
    expect(results[6].error).toEqual({ body: 'The request body must be a JSON object.' });
    expect(Object.keys(results[5].error)).toEqual(['currency']);

    // Every card answered exists and is the business's; the list's total counts them.
    for (const card of [results[0], results[2], results[8]]) {
      expect((await biz.test.get(`/api/v1/card/${card.card_number}`)).body.data).toEqual(card);
    }
    expect((await biz.test.get('/api/v1/card')).body.data.total).toBe(3);
    const audit = await testDb().execute(sql`SELECT count(*)::int AS n FROM audit_log WHERE business_id = ${biz.id} AND action = 'card.created'`);
    expect(audit.rows[0].n).toBe(3);
  });

  it('issues 1,000 cards in one call', async () => {
    const before = await countRows('cards', biz.id);
    const cards = Array.from({ length: 1000 }, (_, i) => ({ phone_number: randomPhone(), currency: 'ETB', first_name: `Bulk ${i}` }));
    const res = await cardsBatch(biz.test, cards);
    expect(res.status).toBe(200);
    const results = res.body.data.results;
    expect(results.filter((r: { status: unknown }) => r.status === 1)).toHaveLength(
      1000 - results.filter((r: { status: unknown }) => r.status === 'error').length,
    );
    // A random phone may repeat within 1,000: then, as singly, the second is refused.
    const made = results.filter((r: { status: unknown }) => r.status === 1);
    expect(made.length).toBeGreaterThan(990);
    expect(new Set(made.map((r: { card_number: string }) => r.card_number)).size).toBe(made.length);
    expect(results.map((r: { name?: string }, i: number) => r.name ?? `Bulk ${i}`)).toEqual(cards.map((c) => c.first_name));
    expect(await countRows('cards', biz.id)).toBe(before + made.length);
  });

  it('refuses a malformed batch whole, with 400 and nothing made', async () => {
    const before = await countRows('cards', biz.id);
    const one = { phone_number: randomPhone(), currency: 'ETB', first_name: 'Never' };
    for (const body of [{}, { cards: one }, { cards: [] }, { cards: Array(1001).fill(one) }, { cards: 'all' }]) {
      const res = await biz.test.post('/api/v1/card/batch', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Validation error', error: { cards: expect.stringContaining('1 to 1000') } });
    }
    expect((await biz.test.post('/api/v1/card/batch', undefined, { raw: '[1,2]' })).status).toBe(400);
    expect(await countRows('cards', biz.id)).toBe(before);
  });

  it('Idempotency-Key covers the whole batch: a retry replays the first answer and issues nothing more', async () => {
    const cards = [
      { phone_number: randomPhone(), currency: 'ETB', first_name: 'Once' },
      { phone_number: randomPhone(), currency: 'ETB' },
    ];
    const key = `cards-batch-${Date.now()}`;
    const first = await cardsBatch(biz.test, cards, { 'idempotency-key': key });
    const before = await countRows('cards', biz.id);
    const again = await cardsBatch(biz.test, cards, { 'idempotency-key': key });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await countRows('cards', biz.id)).toBe(before);
    expect((await cardsBatch(biz.test, cards.slice(0, 1), { 'idempotency-key': key })).status).toBe(409);
  });
});

describe('POST /card/payouts/batch', () => {
  let merchant: TestBusiness;

  beforeAll(async () => {
    merchant = await createTestBusiness('Batch merchant');
  });

  it('spends in order: item k sees the balance items 1..k-1 left; refusals and bad rows are per item', async () => {
    const s = await setUp('Payout batch order', [10_000, 0]);
    const [a, b] = s.cards;
    const res = await payoutsBatch(s.biz.test, [
      { card_number: a, destination_card_number: b, amount: 6_000 },
      { card_number: a, destination_card_number: b, amount: 6_000 },
      { card_number: a, destination_card_number: a, amount: 100 },
      { card_number: a, merchant_id: merchant.merchant_id, amount: 4_000 },
      { card_number: a, destination_card_number: b, amount: 100 },
      { card_number: b, amount: 'many', destination_card_number: a },
      'not an object',
      { card_number: b, amount: 2_000, bank_slug: 'cbe', account_number: '1000123456789', account_name: 'Abebe' },
      { card_number: '0000000000000000', merchant_id: merchant.merchant_id, amount: 100 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const results = res.body.data.results;
    expect(results.map((r: Record<string, string>) => (r.status === 'error' ? r.message : (r.status ?? 'c2c')))).toEqual([
      'c2c',
      'Insufficient balance',
      'Same card',
      'SUCCESS',
      'Insufficient balance',
      'Validation error',
      'Validation error',
      'PENDING',
      'Gift card not found',
    ]);
    expect(results[0]).toMatchObject({
      source_card_number: a,
      destination_card_number: b,
      amount: 6_000,
      service_fee: 0,
      charge_payer: 'sender',
      currency: 'ETB',
    });
    expect(results[5].error).toHaveProperty('amount');
    expect(await cardBalance(s.biz.test, a)).toBe(0);
    expect(await cardBalance(s.biz.test, b)).toBe(4_000);
    const state = await stateOf(s);
    expect(state.payouts.map((p) => [p.payout_type, p.status, p.amount])).toEqual([
      ['card_to_card', 'success', 6_000],
      ['b2b', 'success', 4_000],
      ['bank', 'pending', 2_000],
    ]);
    expect(state.events.map((e) => [e.type, e.payout])).toEqual([
      ['payout.success', 0],
      ['payout.success', 1],
    ]);
    // The bank payout settles as any other.
    const settled = await s.biz.test.post(`/api/v1/test-helpers/payouts/${results[7].provider_reference}/settle`, { status: 'success' });
    expect(settled.body.data.status).toBe('success');
  });

  it.each([
    [
      'random mixes with refusals',
      { bank: 2, bad: 1, maxAmount: 9_000, runs: 8, setWise: false, balances: [12_000, 5_000, 300], limits: { maxPayout: 7_000, maxCardBalance: 16_000 } },
    ],
    // Enough on every card and no card paying itself, so whole chunks pass together (a daily limit, a fee or max_payout still may not).
    [
      'card-to-card and B2B chunks, most passing together',
      { bank: 0, bad: 0, maxAmount: 1_500, runs: 8, setWise: true, balances: [90_000, 90_000, 90_000], limits: { maxPayout: 1_450, maxCardBalance: 110_000 } },
    ],
  ])('equals the same items sent one by one: balances, ledger lines, payout rows, audit lines, events, counters and answers, for %s', async (_, mix) => {
    const item = (cards: number): fc.Arbitrary<Item> =>
      fc.oneof(
        {
          weight: 5,
          arbitrary: fc
            .record({
              from: fc.nat(cards - 1),
              to: fc.nat(cards - 1),
              amount: fc.integer({ min: 100, max: mix.maxAmount }),
              payer: fc.constantFrom('sender' as const, 'receiver' as const, undefined),
            })
            .map((r) => ({ kind: 'c2c' as const, ...r, to: mix.setWise && r.to === r.from ? (r.from + 1) % cards : r.to })),
        },
        {
          weight: 2,
          arbitrary: fc
            .record({ from: fc.nat(cards - 1), amount: fc.integer({ min: 100, max: 6_000 }), payer: fc.constantFrom('business' as const, 'customer' as const) })
            .map((r) => ({ kind: 'b2b' as const, ...r })),
        },
        {
          weight: mix.bank,
          arbitrary: fc
            .record({ from: fc.nat(cards - 1), amount: fc.integer({ min: 100, max: 6_000 }), fails: fc.boolean() })
            .map((r) => ({ kind: 'bank' as const, ...r })),
        },
        { weight: mix.bad, arbitrary: fc.record({ from: fc.nat(cards - 1) }).map((r) => ({ kind: 'bad' as const, ...r })) },
      );
    const { balances } = mix;
    let runs = 0;
    let setWiseRuns = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(item(balances.length), { minLength: 1, maxLength: 24 }),
        fc.boolean(),
        fc.constantFrom(15_000, undefined),
        fc.constantFrom(mix.limits, {}),
        async (items, fees, dailyLimit, limits) => {
          runs++;
          const options = { fees, dailyLimit, ...limits };
          const [batched, single] = await Promise.all([setUp(`Batch twin ${runs}`, balances, options), setUp(`Single twin ${runs}`, balances, options)]);
          await expectSameAsSingles(batched, single, items, merchant);
          // Five payouts at one instant: a chunk statement wrote them (item by item, each statement takes its own time).
          const times = await createdTimes(batched);
          if (times.some((t) => times.filter((x) => x === t).length >= 5)) setWiseRuns++;
        },
      ),
      {
        numRuns: Number(process.env.BATCH_PROPERTY_RUNS ?? mix.runs),
        endOnFailure: process.env.BATCH_PROPERTY_SHRINK === '0',
        // Random draws may all fall short of a passing chunk (CI once drew eight that did); this one always reaches it.
        examples: mix.setWise
          ? [[Array.from({ length: 6 }, (_, i): Item => ({ kind: 'c2c', from: i % 3, to: (i + 1) % 3, amount: 200 + i })), false, undefined, {}]]
          : [],
      },
    );
    expect((await verifyLedger(testDb())).problems).toEqual([]);
    // The mix meant for the chunk statement must have reached it, or the property proves nothing of it.
    if (mix.setWise) expect(setWiseRuns).toBeGreaterThan(0);
  });

  it('a chunk whose items all pass is written by one statement, with the rows, order and day total of singles', async () => {
    const options = { fees: true, dailyLimit: 50_000 };
    const [batched, single] = await Promise.all([
      setUp('Set chunk', [20_000, 20_000, 0, 0], options),
      setUp('Set chunk, sent singly', [20_000, 20_000, 0, 0], options),
    ]);
    const items: Item[] = Array.from({ length: 10 }, (_, k) =>
      k % 3 === 2 ? { kind: 'b2b', from: k % 2, amount: 500 + k, payer: 'customer' } : { kind: 'c2c', from: k % 2, to: 2 + (k % 2), amount: 1_000 + k },
    );
    const results = await expectSameAsSingles(batched, single, items, merchant);
    expect(results.every((r) => r.status !== 'error')).toBe(true);
    // One statement: one instant for the chunk's ten payouts; the singles each have their own.
    expect(new Set(await createdTimes(batched)).size).toBe(1);
    expect(new Set(await createdTimes(single)).size).toBe(10);
    const state = await stateOf(batched);
    // Three lines a payout (source, destination, fee), in item order; the card's running balance on each of its own.
    expect(state.entries.map((e) => e.payout)).toEqual(Array.from({ length: 30 }, (_, k) => Math.floor(k / 3)));
    expect(state.audit.map((a) => a.payout)).toEqual(Array.from({ length: 10 }, (_, k) => k));
    expect(state.events.map((e) => e.payout)).toEqual(Array.from({ length: 10 }, (_, k) => k));
    expect(state.days).toEqual([{ currency: 'ETB', total: items.reduce((t, i) => t + (i.kind === 'bad' ? 0 : i.amount), 0) }]);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('a chunk with an item refused mid-way is written item by item and answers as singles', async () => {
    const [batched, single] = await Promise.all([setUp('Set chunk refused', [5_000, 0]), setUp('Set chunk refused, sent singly', [5_000, 0])]);
    const items: Item[] = [
      { kind: 'c2c', from: 0, to: 1, amount: 2_000 },
      { kind: 'c2c', from: 0, to: 1, amount: 2_000 },
      { kind: 'c2c', from: 0, to: 1, amount: 2_000 },
      { kind: 'b2b', from: 0, amount: 1_000 },
    ];
    const results = await expectSameAsSingles(batched, single, items, merchant);
    expect(results.map((r) => (r.status === 'error' ? r.message : 'made'))).toEqual(['made', 'made', 'Insufficient balance', 'made']);
  });

  it('a card credited earlier in a chunk may spend it later: the chunk is written item by item, as singles', async () => {
    const [batched, single] = await Promise.all([setUp('Set chunk relay', [3_000, 0, 0]), setUp('Set chunk relay, sent singly', [3_000, 0, 0])]);
    const items: Item[] = [
      { kind: 'c2c', from: 0, to: 1, amount: 3_000 },
      { kind: 'c2c', from: 1, to: 2, amount: 2_000 },
      { kind: 'c2c', from: 2, to: 0, amount: 1_500 },
    ];
    const results = await expectSameAsSingles(batched, single, items, merchant);
    expect(results.every((r) => r.status !== 'error')).toBe(true);
    expect((await stateOf(batched)).balances).toEqual([1_500, 1_000, 500]);
  });

  it('a fee rule changed after the batch read it: the chunk statement writes nothing and the items charge the new rule', async () => {
    const s = await setUp('Set chunk fee change', [100_000, 100_000]);
    await setFees(s.biz, 'test', [{ applies_to: 'card_to_card', percent: '0', fixed: 10 }]);
    const batch = () => Array.from({ length: 10 }, (_, k) => ({ card_number: s.cards[k % 2], destination_card_number: s.cards[1 - (k % 2)], amount: 100 }));
    const before = await payoutsBatch(s.biz.test, batch());
    expect(before.body.data.results.map((r: { service_fee: number }) => r.service_fee)).toEqual(Array(10).fill(10));
    // The server remembers the rule of 10; the batch's chunk is quoted at 10 and its statement finds 30.
    await setFees(s.biz, 'test', [{ applies_to: 'card_to_card', percent: '0', fixed: 30 }]);
    const after = await payoutsBatch(s.biz.test, batch());
    expect(after.body.data.results.map((r: { service_fee: number }) => r.service_fee)).toEqual(Array(10).fill(30));
    const fees = await testDb().execute<{ fee: number; n: number }>(
      sql`SELECT service_fee::int AS fee, count(*)::int AS n FROM payouts WHERE business_id = ${s.biz.id} AND is_ledger_topup = false GROUP BY 1 ORDER BY 1`,
    );
    expect(fees.rows).toEqual([
      { fee: 10, n: 10 },
      { fee: 30, n: 10 },
    ]);
    expect((await cardBalance(s.biz.test, s.cards[0])) + (await cardBalance(s.biz.test, s.cards[1]))).toBe(200_000 - 10 * 10 - 10 * 30);
  });

  it('racing single payouts on the same cards overspends nothing and every sum is exact', async () => {
    const s = await setUp('Payout batch race', [20_000, 20_000, 0]);
    const [a, b, sink] = s.cards;
    const batchItems = Array.from({ length: 100 }, (_, i) => ({ card_number: i % 2 ? a : b, destination_card_number: sink, amount: 300 }));
    const single = (from: string) => s.biz.test.post('/api/v1/card/payouts', { card_number: from, destination_card_number: sink, amount: 300 });
    const answers = await Promise.all([
      payoutsBatch(s.biz.test, batchItems),
      payoutsBatch(s.biz.test, batchItems),
      ...Array.from({ length: 60 }, (_, i) => single(i % 2 ? a : b)),
    ]);
    const batchResults = answers.slice(0, 2).flatMap((r) => {
      expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
      return r.body.data.results as Record<string, unknown>[];
    });
    const singleAnswers = answers.slice(2);
    for (const r of singleAnswers) expect([200, 400]).toContain(r.status);
    const made = batchResults.filter((r) => r.status !== 'error').length + singleAnswers.filter((r) => r.status === 200).length;
    for (const r of [...batchResults.filter((r) => r.status === 'error'), ...singleAnswers.filter((r) => r.status !== 200).map((r) => r.body)]) {
      expect(r.message).toBe('Insufficient balance');
    }
    // 20,000 over 300 a payout: 66 fit on each card, and every one of them was made.
    expect(made).toBe(132);
    expect(await cardBalance(s.biz.test, a)).toBe(200);
    expect(await cardBalance(s.biz.test, b)).toBe(200);
    expect(await cardBalance(s.biz.test, sink)).toBe(132 * 300);
    // and the two ledger top-ups that funded the cards.
    expect(await countRows('payouts', s.biz.id)).toBe(132 + 2);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('more batches at once than the server has database connections, on shared cards, all finish and add up', async () => {
    const s = await setUp('Payout batch crowd', [1_000_000, 1_000_000, 1_000_000, 1_000_000]);
    const pairs = [
      [0, 1],
      [1, 2],
      [2, 3],
      [3, 0],
    ];
    const batch = (k: number) =>
      Array.from({ length: 20 }, (_, i) => {
        const [from, to] = pairs[(k + i) % pairs.length];
        return { card_number: s.cards[from], destination_card_number: s.cards[to], amount: 100 + k };
      });
    // The test server's pool holds 8 connections (DB_POOL_SIZE); each batch holds one for its transaction.
    const answers = await Promise.all(Array.from({ length: 40 }, (_, k) => payoutsBatch(s.biz.test, batch(k))));
    for (const r of answers) {
      expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(200);
      expect(r.body.data.results.every((x: { status?: string }) => x.status !== 'error')).toBe(true);
    }
    // Every card sends and receives the same payouts: balances are back where they started.
    for (const card of s.cards) expect(await cardBalance(s.biz.test, card)).toBe(1_000_000);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('a fee rule set after batches ran without one is charged by every later item, batches racing on shared cards', async () => {
    const s = await setUp('Payout batch late fee', [1_000_000, 1_000_000, 1_000_000, 1_000_000]);
    const batch = (k: number, size: number) =>
      Array.from({ length: size }, (_, i) => ({ card_number: s.cards[(k + i) % 4], destination_card_number: s.cards[(k + i + 1) % 4], amount: 100 }));
    // The server now remembers "no fee rule", so its batches stop holding a fee revenue account from their start.
    const before = await payoutsBatch(s.biz.test, batch(0, 4));
    expect(before.body.data.results.map((r: { service_fee: number }) => r.service_fee)).toEqual([0, 0, 0, 0]);
    await setFees(s.biz, 'test', [{ applies_to: 'card_to_card', percent: '0', fixed: 20 }]);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, k) => payoutsBatch(s.biz.test, batch(k, 25))));
    for (const r of answers) {
      expect(r.status, JSON.stringify(r.body).slice(0, 200)).toBe(200);
      expect(r.body.data.results.map((x: { service_fee?: number }) => x.service_fee)).toEqual(Array(25).fill(20));
    }
    const fees = await testDb().execute<{ n: number; fees: number }>(
      sql`SELECT count(*)::int AS n, sum(service_fee)::int AS fees FROM payouts WHERE business_id = ${s.biz.id} AND payout_type = 'card_to_card'`,
    );
    expect(fees.rows[0]).toEqual({ n: 4 + 12 * 25, fees: 12 * 25 * 20 });
    let total = 0;
    for (const card of s.cards) total += await cardBalance(s.biz.test, card);
    expect(total).toBe(4_000_000 - 12 * 25 * 20);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('Idempotency-Key covers the whole batch; a malformed batch is 400 and moves nothing', async () => {
    const s = await setUp('Payout batch idempotency', [5_000, 0]);
    const items = [{ card_number: s.cards[0], destination_card_number: s.cards[1], amount: 1_000 }];
    const key = `payouts-batch-${Date.now()}`;
    const first = await payoutsBatch(s.biz.test, items, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    const again = await payoutsBatch(s.biz.test, items, { 'idempotency-key': key });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await cardBalance(s.biz.test, s.cards[0])).toBe(4_000);

    for (const body of [{ payouts: items[0] }, { payouts: [] }, { payouts: Array(101).fill(items[0]) }, { items }]) {
      const res = await s.biz.test.post('/api/v1/card/payouts/batch', body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Validation error', error: { payouts: expect.stringContaining('1 to 100') } });
    }
    expect(await cardBalance(s.biz.test, s.cards[0])).toBe(4_000);
  });
});
