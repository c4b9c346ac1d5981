/** The most items one batch call takes: a card is cheap to issue; a payout batch holds its accounts locked until it commits. */
export const MAX_CARDS_PER_BATCH = 1000;
export const MAX_PAYOUTS_PER_BATCH = 100;
