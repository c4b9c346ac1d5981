/** The most items one batch call takes: a card is cheap to issue; a payout batch holds its accounts locked until it commits. */
export const MAX_CARDS_PER_BATCH = 1000;
export const MAX_PAYOUTS_PER_BATCH = 100;

/**
 * Payouts of a batch per transaction. A transaction keeps its cards locked
 * until it commits, so batches over shared cards wait for each other for as
 * long as it runs; a few items per commit keep that short while still sharing
 * commits. PAYOUT_BATCH_ITEMS_PER_COMMIT overrides it, for measuring (bench/batches/NOTE.md).
 */
export const ITEMS_PER_COMMIT = Number(process.env.PAYOUT_BATCH_ITEMS_PER_COMMIT ?? 10);
