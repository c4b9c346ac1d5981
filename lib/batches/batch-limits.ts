/** The most items one batch call takes: a card is cheap to issue; a payout batch holds its accounts locked until it commits. */
export const MAX_CARDS_PER_BATCH = 1000;
export const MAX_PAYOUTS_PER_BATCH = 100;

/**
 * Payouts of a batch per transaction. A transaction keeps its cards locked
 * until it commits, so batches over shared cards wait for each other for as
 * long as it runs. 25: a chunk written by one statement (writeChunk) costs
 * about as much per payout from 25 to 100 one batch at a time and no more
 * eight at once, while a chunk written item by item (a bank item, a refusal)
 * holds its locks for 25 statements, the most measured to cost nothing under
 * contention (bench/batches/NOTE.md). PAYOUT_BATCH_ITEMS_PER_COMMIT overrides
 * it, for measuring.
 */
export const ITEMS_PER_COMMIT = itemsPerCommit(process.env.PAYOUT_BATCH_ITEMS_PER_COMMIT);

function itemsPerCommit(setting: string | undefined): number {
  if (setting === undefined) return 25;
  const n = Number(setting);
  // 0 or a non-number would loop forever or answer no item: refused at start-up rather than met in a batch.
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAYOUTS_PER_BATCH)
    throw new Error(`PAYOUT_BATCH_ITEMS_PER_COMMIT must be a whole number from 1 to ${MAX_PAYOUTS_PER_BATCH}`);
  return n;
}
