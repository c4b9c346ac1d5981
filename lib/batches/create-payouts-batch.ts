import type { Actor } from '../actor';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { CommittedPart, withoutCommitHook } from '../db/commit-hooks';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { businessAccountId, clearingAccountId, feeRevenueAccountId, randomFeeShard } from '../ledger/accounts';
import { partyNumbers, type WrittenPayout } from '../payouts/create-payout';
import { answerWritten } from '../payouts/payout-destinations';
import { bankRailFor } from '../providers/provider-registry';
import { mayChargeFee, rememberBatchParties } from '../payouts/payout-parties';
import type { PayoutRequest } from '../payouts/payout-request';
import type { Currency, Mode } from '../validation';
import { announceCreated } from '../webhooks/live-updates';
import { ITEMS_PER_COMMIT, MAX_PAYOUTS_PER_BATCH } from './batch-limits';
import { itemResult, type BatchResult } from './batch-result';
import { answerRecorded, chunkRecord, type PayoutAnswer, type RecordedItem } from './payout-batch-record';
import { writeChunk } from './payouts-chunk-statement';
import { countedCall } from '../observability/metrics';
import { logger } from '../observability/logger';

export interface CreatePayoutsBatchOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  /** Each item as POST /card/payouts takes it, parsed (parsePayoutRequest); an item that did not parse is the caller's to answer. */
  items: PayoutRequest[];
  /** What a run of this same batch that died recorded for its first items: they are answered from it, and the batch goes on after them. */
  recorded?: RecordedItem[];
  /** Runs in each chunk's transaction once its accounts are locked, before its payouts: an upload gives back there what it held for the chunk's rows. */
  beforeEachChunk?: (tx: Tx, items: PayoutRequest[]) => Promise<void>;
  /**
   * Accounts beforeEachChunk moves besides the chunk's cards (an upload's held accounts): locked with the cards in
   * the same id-ordered statement, never after them, so a till hold (which locks the card and the held account in id
   * order) and a chunk cannot each hold what the other waits for.
   */
  lockAlso?: number[];
}

/**
 * Pays out in order, exactly as if each item were POST /card/payouts sent one
 * after another: every item is the single payout's own statement (its guards,
 * fee, limits, audit line and event), or a chunk proven to pass whole is one
 * statement of the same writes (writeChunk), so item k sees the balances, daily
 * totals and events left by items 1..k-1. They commit ITEMS_PER_COMMIT at a
 * time, in order. A refused statement writes nothing and needs no savepoint,
 * so one refused item leaves the others; a deadlock or serialization failure
 * redoes its transaction's items; any other error stops the batch there: the
 * items committed before it are answered, the rest answered as not made (or,
 * when none committed, the batch fails whole with nothing moved). Bank
 * payouts' rails hear of them only after their commit, in order, as the
 * single call tells its rail after its own. Each transaction records its
 * items' outcomes with the Idempotency-Key (CommittedPart), so a retry after a
 * crash passes them back as `recorded` and the batch goes on after them.
 *
 * Inside the transaction every read goes through its connection too: a
 * transaction that waited for a second connection of the pool while holding
 * locks could wait forever on batches holding all the others.
 */
export async function createPayoutsBatch(db: Db, opts: CreatePayoutsBatchOptions): Promise<BatchResult<PayoutAnswer>[]> {
  if (opts.items.length > MAX_PAYOUTS_PER_BATCH) throw new RangeError(`at most ${MAX_PAYOUTS_PER_BATCH} payouts per batch`);
  const itemOpts = { businessId: opts.businessId, mode: opts.mode, actor: opts.actor, railAfterCommit: true, quiet: true, feeShard: randomFeeShard() };
  const feeAccounts = await ensureSharedAccounts(db, opts, itemOpts.feeShard);
  const numbers = opts.items.flatMap(partyNumbers);
  await rememberBatchParties(db, opts.businessId, opts.mode, [...new Set(opts.items.map((r) => r.type))], numbers);
  // A bank item checks its destination against the rail's bank list inside the transaction that holds the cards' and
  // shared accounts' locks: fetched here first, that check answers from memory instead of waiting on the rail's HTTP.
  const rail = bankRailFor(opts.mode);
  if (rail?.warm && opts.items.some((r) => r.type === 'bank')) await rail.warm().catch(() => {});
  const answerOpts = { businessId: opts.businessId, mode: opts.mode, actor: opts.actor };
  const written: BatchResult<WrittenPayout>[] = [];
  if ((opts.recorded?.length ?? 0) > opts.items.length) throw new RangeError('more items recorded than the batch has');
  const results: BatchResult<PayoutAnswer>[] = opts.recorded ? await answerRecorded(db, opts, opts.recorded) : [];
  // Chunks commit in order, so the recorded items are the first ones and the rest start on a chunk's boundary, as they would have.
  for (let start = results.length; start < opts.items.length; start += ITEMS_PER_COMMIT) {
    const chunk = opts.items.slice(start, start + ITEMS_PER_COMMIT);
    let done: BatchResult<WrittenPayout>[];
    try {
      // The chunk's outcomes are recorded with the Idempotency-Key in its own transaction: a retry after a crash resumes after them.
      const committed = await inTransaction(db, (tx) =>
        withoutCommitHook(async () => {
          // Read inside the transaction: a redone transaction sees the fee rule its refused attempt found.
          const fees = chunk.some((r) => mayChargeFee(opts.businessId, opts.mode, r.type)) ? feeAccounts : [];
          return writeChunk(tx, itemOpts, chunk, async () => {
            await lockAccounts(tx, opts.mode, opts.businessId, chunk, [...fees, ...(opts.lockAlso ?? [])]);
            await opts.beforeEachChunk?.(tx, chunk);
          });
        }).then((out) => new CommittedPart(chunkRecord(start, out), out)),
      );
      done = committed.value;
    } catch (err) {
      // Nothing committed yet: the batch fails whole. Otherwise the items made must be answered, never hidden behind a 500.
      if (start === 0) throw err;
      // The key's claim was taken over by a retry that finishes the batch (this run was taken for dead): its answer is that retry's.
      if (err instanceof ServiceError && err.code === 'request_in_progress')
        throw new ServiceError(
          'request_in_progress',
          'A retry with this Idempotency-Key took this batch over and finishes it; send it again with the same key for the whole answer.',
        );
      logger.error({ err }, 'payout batch stopped after committed items');
      const unmade = new ServiceError('internal', 'This item was not made (nothing was moved for it); the items before it were. Send it again.');
      for (let i = start; i < opts.items.length; i++) results.push({ ok: false, error: unmade });
      break;
    }
    written.push(...done);
    for (const [k, w] of done.entries()) {
      // Counted on /metrics as the single call counts its payout: made, or refused with its error.
      // Outside the key's commit hook: the chunk's outcomes are already recorded, and a rail refusal's reversal must
      // commit even when a retry has taken the key over meanwhile (marking it under this run's claim would roll it back).
      const answer = () => (w.ok ? withoutCommitHook(() => answerWritten(db, answerOpts, w.value.plan, w.value.payout)) : Promise.reject(w.error));
      results.push(await itemResult(() => countedCall('payouts', { type: chunk[k].type, mode: opts.mode }, answer)));
    }
  }
  const made = written.flatMap((w) => (w.ok ? [w.value.payout.reference] : []));
  if (made.length > 0) announceCreated(db, opts.businessId, opts.mode, 'payout', made[made.length - 1]);
  return results;
}

/**
 * The shared accounts the batch's payouts credit (its fee revenue shard, the
 * merchants' business accounts, the bank clearing account), found or created
 * before the transaction, each in a statement of its own: inside it, the
 * payouts then find them remembered, and a batch that rolls back cannot leave
 * a remembered account that was never committed. Answers the fee accounts.
 */
async function ensureSharedAccounts(db: Db, opts: CreatePayoutsBatchOptions, feeShard: number): Promise<number[]> {
  const sources = opts.items.map((r) => r.input.card_number);
  const merchants = opts.items.flatMap((r) => (r.type === 'b2b' ? [r.input.merchant_id] : []));
  const found = await db.execute<{ currency: Currency }>(sql`SELECT DISTINCT currency FROM cards
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND cancelled_at IS NULL AND card_number = ANY(${textArray(sources)}::text[])`);
  const currencies = found.rows.map((r) => r.currency);
  const merchantIds =
    merchants.length === 0
      ? []
      : (await db.execute<{ id: number }>(sql`SELECT id FROM businesses WHERE merchant_id = ANY(${textArray(merchants)}::text[])`)).rows.map((r) => r.id);
  const banks = opts.items.some((r) => r.type === 'bank');
  const [feeAccounts] = await Promise.all([
    Promise.all(currencies.map((c) => feeRevenueAccountId(db, opts.mode, c, feeShard))),
    Promise.all(currencies.flatMap((c) => merchantIds.map((m) => businessAccountId(db, m, opts.mode, c)))),
    Promise.all(banks ? currencies.map((c) => clearingAccountId(db, 'bank', opts.mode, c)) : []),
  ]);
  return feeAccounts;
}

const textArray = (texts: string[]) => `{${[...new Set(texts)].map((t) => JSON.stringify(t)).join(',')}}`;

/**
 * Takes the batch's card accounts, its fee revenue shard and the accounts its
 * hook moves (lockAlso) at once, in id order, before its first payout: each payout statement locks its own
 * accounts in id order, but a batch adds accounts as it goes, so without
 * this a batch and a payout (or two batches) sharing cards could each hold
 * what the other waits for. Sources count only when they are the business's
 * own cards (a payout from any other card is refused before it locks).
 * The fee shard is left out when no item can pay a fee: held for the whole
 * transaction, it made up to 8 batches (one of 8 shards each) wait on each
 * other for nothing (bench/batches/NOTE.md). Should a fee rule appear
 * meanwhile, the item's statement locks the shard itself; a deadlock that may
 * then follow redoes the transaction, which locks it at the start. Both
 * tables are read by their unique indexes (card number, id) whatever the
 * statistics say: written as a semi join, a table that looked small was read
 * whole for every chunk.
 */
async function lockAccounts(tx: Tx, mode: Mode, businessId: number, items: PayoutRequest[], sharedAccounts: number[]) {
  const sources = items.map((r) => r.input.card_number);
  const destinations = items.flatMap((r) => (r.type === 'card_to_card' ? [r.input.destination_card_number] : []));
  await tx.execute(sql`SELECT id FROM ledger_accounts WHERE id = ANY(ARRAY(
      SELECT account_id FROM cards WHERE card_number = ANY(${textArray([...sources, ...destinations])}::text[]) AND mode = ${mode} AND cancelled_at IS NULL
        AND (business_id = ${businessId} OR card_number = ANY(${textArray(destinations)}::text[]))
      UNION ALL SELECT unnest(${`{${sharedAccounts.join(',')}}`}::bigint[])))
    ORDER BY id FOR UPDATE`);
}
