import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { createTestBusiness, testDb, type TestBusiness } from '../helpers';
import { createdTimes, expectSameAsSingles, setUp, stateOf, type Item, type TwinOptions } from './batch-twins';

/**
 * Batches against their twins fed singly where the chunk statement's joint
 * guard must see the order of its items: chunks that run a card short, or
 * take a card over its max_card_balance, part-way, though every card ends
 * the chunk within its balance and its limit. The chunk statement must then
 * refuse and leave the items to their own statements; a guard left out, or
 * one that counts a card's later credits (or debits) as if they came first,
 * lets it write items the singles refuse.
 */

const made = (results: Record<string, any>[]) => results.map((r) => (r.status === 'error' ? r.message : 'made'));

describe('payout batches with business limits, chunks running cards short or over their max balance', () => {
  let merchant: TestBusiness;

  beforeAll(async () => {
    merchant = await createTestBusiness('Limits twin merchant');
  });

  const twins = (name: string, balances: number[], options: TwinOptions) =>
    Promise.all([setUp(`${name}, batched`, balances, options), setUp(`${name}, sent singly`, balances, options)]);

  it('several payouts from one card in one chunk, together more than it holds, and one over max_payout: each refused as singly', async () => {
    const [batched, single] = await twins('Chunk overdraws', [3_000, 0, 0], { maxPayout: 2_500, maxCardBalance: 10_000 });
    const items: Item[] = [
      { kind: 'c2c', from: 0, to: 1, amount: 2_600 },
      { kind: 'c2c', from: 0, to: 1, amount: 1_200 },
      { kind: 'b2b', from: 0, amount: 1_200 },
      { kind: 'c2c', from: 0, to: 2, amount: 1_200 },
      { kind: 'c2c', from: 0, to: 2, amount: 600 },
    ];
    const results = await expectSameAsSingles(batched, single, items, merchant);
    expect(made(results)).toEqual(['Limit exceeded', 'made', 'made', 'Insufficient balance', 'made']);
  });

  it('a card paying out before a later item of its chunk funds it is refused, as it is sent singly', async () => {
    const [batched, single] = await twins('Chunk spends first', [3_000, 0, 0], { maxPayout: 2_500, maxCardBalance: 10_000 });
    const items: Item[] = [
      { kind: 'c2c', from: 1, to: 2, amount: 1_000 },
      { kind: 'c2c', from: 0, to: 1, amount: 2_000 },
      { kind: 'c2c', from: 0, to: 2, amount: 500 },
    ];
    const results = await expectSameAsSingles(batched, single, items, merchant);
    expect(made(results)).toEqual(['Insufficient balance', 'made', 'made']);
    expect((await stateOf(batched)).balances).toEqual([500, 2_000, 500]);
  });

  it('payouts into one card past its max_card_balance: the one that would take it over is refused', async () => {
    const [batched, single] = await twins('Chunk fills a card', [5_000, 5_000], { maxPayout: 2_500, maxCardBalance: 6_000 });
    const items: Item[] = [
      { kind: 'c2c', from: 0, to: 1, amount: 600 },
      { kind: 'c2c', from: 0, to: 1, amount: 600 },
      { kind: 'c2c', from: 0, to: 1, amount: 400 },
    ];
    const results = await expectSameAsSingles(batched, single, items, merchant);
    expect(made(results)).toEqual(['made', 'Limit exceeded', 'made']);
    expect((await stateOf(batched)).balances).toEqual([4_000, 6_000]);
  });

  it('a card credited past its max_card_balance before a later item of its chunk spends it down is refused, as it is sent singly', async () => {
    const [batched, single] = await twins('Chunk credits first', [5_000, 5_500, 0], { maxPayout: 2_500, maxCardBalance: 6_000 });
    const items: Item[] = [
      { kind: 'c2c', from: 0, to: 1, amount: 1_000 },
      { kind: 'c2c', from: 1, to: 2, amount: 2_000 },
      { kind: 'c2c', from: 0, to: 2, amount: 500 },
    ];
    const results = await expectSameAsSingles(batched, single, items, merchant);
    expect(made(results)).toEqual(['Limit exceeded', 'made', 'made']);
    expect((await stateOf(batched)).balances).toEqual([4_500, 3_500, 2_500]);
  });

  it('a chunk whose cards stay within their balances and limits all the way is written by one statement', async () => {
    const [batched, single] = await twins('Chunk within limits', [5_000, 5_000, 0], { maxPayout: 2_500, maxCardBalance: 6_000 });
    const items: Item[] = [
      { kind: 'c2c', from: 0, to: 2, amount: 2_500 },
      { kind: 'c2c', from: 1, to: 2, amount: 2_500 },
      { kind: 'c2c', from: 0, to: 1, amount: 1_000 },
      { kind: 'b2b', from: 1, amount: 2_000 },
    ];
    const results = await expectSameAsSingles(batched, single, items, merchant);
    expect(made(results)).toEqual(['made', 'made', 'made', 'made']);
    // The control for the cases above: their chunks are refused for the order of their items, not for being chunks.
    expect(new Set(await createdTimes(batched)).size).toBe(1);
  });

  /**
   * Cards with these balances under these limits, and chunks of card-to-card and B2B items (no fee) after which every
   * card is within its balance and max_card_balance: whether a card runs short, or over its limit, on the way is the
   * order's, which only the singles (and a chunk guard that keeps to the worst case) see.
   */
  it.each([
    ['cards running short part-way', { balances: [0, 500, 1_500, 3_000], maxPayout: 2_500, maxCardBalance: 20_000 }],
    ['cards going over max_card_balance part-way', { balances: [2_500, 4_000, 5_500, 5_800], maxPayout: 2_500, maxCardBalance: 6_000 }],
  ])('equals the same items sent one by one, for %s', async (_, profile) => {
    const cards = profile.balances.length;
    const item: fc.Arbitrary<Item> = fc.oneof(
      {
        weight: 9,
        arbitrary: fc
          .record({ from: fc.nat(cards - 1), by: fc.integer({ min: 1, max: cards - 1 }), amount: fc.integer({ min: 200, max: 2_000 }) })
          .map(({ from, by, amount }) => ({ kind: 'c2c' as const, from, to: (from + by) % cards, amount })),
      },
      {
        weight: 1,
        arbitrary: fc.record({ from: fc.nat(cards - 1), amount: fc.integer({ min: 200, max: 2_000 }) }).map((r) => ({ kind: 'b2b' as const, ...r })),
      },
    );
    /** Every card's balance after the whole chunk, in order or not. */
    const endsWithin = (items: Item[]) => {
      const end = [...profile.balances];
      for (const i of items) {
        if (i.kind !== 'c2c' && i.kind !== 'b2b') continue;
        end[i.from] -= i.amount;
        if (i.kind === 'c2c') end[i.to] += i.amount;
      }
      return end.every((b) => b >= 0 && b <= profile.maxCardBalance);
    };
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 2, maxLength: 8 }).filter(endsWithin), async (items) => {
        runs++;
        const [batched, single] = await twins(`Limits twin ${runs}`, profile.balances, profile);
        await expectSameAsSingles(batched, single, items, merchant);
      }),
      { numRuns: Number(process.env.BATCH_PROPERTY_RUNS ?? 8), endOnFailure: process.env.BATCH_PROPERTY_SHRINK === '0' },
    );
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });
});
