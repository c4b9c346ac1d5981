import { sql, type SQL } from 'drizzle-orm';
import { payments, payouts } from '../db/schema';
import { FEE_OFF_AMOUNT_PAIRS, splitAmounts, takesFeeOffAmount } from '../payouts/payout-rules';
import type { PayoutType } from '../payouts/payout-view';

/**
 * A payout's net: what leaves the paying card (or, for a ledger top-up, the
 * business account). When the sender or customer pays the fee it is added
 * to the amount; when the receiver or business pays it, it comes off what
 * the destination gets, and only the amount leaves. The same for every
 * status: the status column says whether a failed payout gave it back.
 */
export function payoutNet(p: { payoutType: string; amount: number; serviceFee: number; chargePayer: string }): number {
  return splitAmounts(p.amount, p.serviceFee, takesFeeOffAmount(p.payoutType as PayoutType, p.chargePayer)).debit;
}

/** A payment's net: what the card (or the business account, for a card closed meanwhile) received. The customer paid amount + fee. */
export function paymentNet(p: { amount: number }): number {
  return p.amount;
}

/** payoutNet as SQL over the payouts table, for totals summed in the database. */
export const payoutNetSql = (): SQL =>
  sql`(${payouts.amount} + CASE WHEN (${payouts.payoutType}, ${payouts.chargePayer}) IN (${sql.join(
    FEE_OFF_AMOUNT_PAIRS.map(([type, payer]) => sql`(${type}, ${payer})`),
    sql`, `,
  )}) THEN 0 ELSE ${payouts.serviceFee} END)`;

/** paymentNet as SQL over the payments table. */
export const paymentNetSql = (): SQL => sql`${payments.amount}`;
