import type { PayoutType } from './payout-view';

/**
 * Who pays a payout's fee, and how: the one home of SPEC.md's charge_payer
 * table. The quote, the dashboard's form and labels, the list's net amount
 * and its SQL are all derived from it; the history rollup trigger is held to
 * it by tests/history-totals.test.ts.
 */
export const CHARGE_PAYERS = ['sender', 'receiver', 'business', 'customer'] as const;
type ChargePayer = (typeof CHARGE_PAYERS)[number];

const PAYER_RULES: Record<PayoutType, { default: ChargePayer; other: ChargePayer; takesFeeOffAmount: ChargePayer }> = {
  card_to_card: { default: 'sender', other: 'receiver', takesFeeOffAmount: 'receiver' },
  b2b: { default: 'business', other: 'customer', takesFeeOffAmount: 'business' },
  bank: { default: 'business', other: 'customer', takesFeeOffAmount: 'business' },
};

/** Who may pay the fee for each payout type, default first. */
export const PAYERS = Object.fromEntries(Object.entries(PAYER_RULES).map(([type, r]) => [type, [r.default, r.other] as const])) as Record<
  PayoutType,
  readonly [string, string]
>;

/** Whether this payer takes the fee off what the destination receives (else it is added to what leaves the card). */
export function takesFeeOffAmount(type: PayoutType, chargePayer: string): boolean {
  return PAYER_RULES[type].takesFeeOffAmount === chargePayer;
}

/** Each payout type with the payer who takes the fee off the amount, for rules written in SQL. */
export const FEE_OFF_AMOUNT_PAIRS = (Object.keys(PAYER_RULES) as PayoutType[]).map((type) => [type, PAYER_RULES[type].takesFeeOffAmount] as const);

/**
 * Source debit and destination credit: the fee is either added to what the
 * source pays or taken from what the destination gets.
 */
export function splitAmounts(amount: number, fee: number, feeFromAmount: boolean) {
  return feeFromAmount ? { debit: amount, credit: amount - fee } : { debit: amount + fee, credit: amount };
}
