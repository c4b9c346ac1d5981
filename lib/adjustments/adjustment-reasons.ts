/** Why a card's balance is adjusted by hand; `other` needs a note saying why. */
export const ADJUSTMENT_REASONS = ['goodwill', 'correction', 'chargeback', 'fraud_recovery', 'other'] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

/** Increase: the business account pays the card. Decrease: the card gives back to the business account. */
export const ADJUSTMENT_DIRECTIONS = ['increase', 'decrease'] as const;
export type AdjustmentDirection = (typeof ADJUSTMENT_DIRECTIONS)[number];
