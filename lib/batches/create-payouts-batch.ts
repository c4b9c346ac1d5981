import type { Actor } from '../actor';
import type { Db } from '../db/client';
import { withoutCommitHook } from '../db/commit-hooks';
import { inTransaction } from '../db/transaction';
import { randomFeeShard } from '../ledger/accounts';
import { writeRequestedPayout, type WrittenPayout } from '../payouts/create-payout';
import { answerWritten } from '../payouts/payout-destinations';
import type { PayoutRequest } from '../payouts/payout-request';
import type { Mode } from '../validation';
import { announceCreated } from '../webhooks/live-updates';
import { MAX_PAYOUTS_PER_BATCH } from './batch-limits';
import { itemResult, type BatchResult } from './batch-result';

export interface CreatePayoutsBatchOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  /** Each item as POST /card/payouts takes it, parsed (parsePayoutRequest); an item that did not parse is the caller's to answer. */
  items: PayoutRequest[];
}

export type PayoutAnswer = Awaited<ReturnType<typeof answerWritten>>;

/**
 * Pays out in order, exactly as if each item were POST /card/payouts sent one
 * after another: every item is the single payout's own statement (its guards,
 * fee, limits, audit line and event), so item k sees the balances, daily
 * totals and events left by items 1..k-1. They share one transaction and one
 * commit. A refused statement writes nothing and needs no savepoint, so one
 * refused item leaves the others; an unexpected error fails the whole batch
 * (rolled back, nothing moved), and a deadlock or serialization failure
 * against concurrent payouts redoes the whole batch. Bank payouts' rails hear
 * of them only after the commit, in order, as the single call tells its rail
 * after its own.
 */
export async function createPayoutsBatch(db: Db, opts: CreatePayoutsBatchOptions): Promise<BatchResult<PayoutAnswer>[]> {
  if (opts.items.length > MAX_PAYOUTS_PER_BATCH) throw new RangeError(`at most ${MAX_PAYOUTS_PER_BATCH} payouts per batch`);
  const itemOpts = { businessId: opts.businessId, mode: opts.mode, actor: opts.actor, railAfterCommit: true, quiet: true, feeShard: randomFeeShard() };
  const written = await inTransaction(db, (tx) =>
    withoutCommitHook(async () => {
      const out: BatchResult<WrittenPayout>[] = [];
      // Each item's statement joins the batch's transaction; its reads need none (a batch changes no card or fee rule).
      for (const request of opts.items) out.push(await itemResult(() => writeRequestedPayout(db, itemOpts, request, tx)));
      return out;
    }),
  );
  const answerOpts = { businessId: opts.businessId, mode: opts.mode, actor: opts.actor };
  const results: BatchResult<PayoutAnswer>[] = [];
  for (const w of written) results.push(w.ok ? await itemResult(() => answerWritten(db, answerOpts, w.value.plan, w.value.payout)) : w);
  const made = written.flatMap((w) => (w.ok ? [w.value.payout.reference] : []));
  if (made.length > 0) announceCreated(db, opts.businessId, opts.mode, 'payout', made[made.length - 1]);
  return results;
}
