import { findBank } from './banks';

/** Why a payout or payment failed, in the words the dashboard shows its staff (never sent through the API). */
export const FAILURE_REASONS = {
  destinationCardGone: 'The destination card was cancelled before the top-up settled; the money went back to the business balance.',
  topUpOverCardLimit: 'The top-up would have taken the card over its maximum balance; the money went back to the business balance.',
  topUpRefused: 'The provider refused the transfer to this card; the money went back to the business balance.',
  providerReported: 'The payment provider reported that the payout failed.',
  walletDeclined: "The customer's wallet declined the charge.",
  checkoutFailed: "The customer's payment did not go through at checkout.",
  checkoutCancelled: 'The customer cancelled the payment at checkout.',
  chargeCancelled: 'The charge was cancelled before the customer approved it.',
} as const;

/** The sandbox rail's refusal of an account (CONTRACT.md: accounts ending in 0000 fail), named after the bank or wallet. */
export function accountRefusedReason(bankSlug: string | null): string {
  const bank = bankSlug ? findBank(bankSlug) : undefined;
  if (!bank) return 'The bank refused the account number.';
  return bank.type === 'wallet' ? `${bank.name} refused the wallet account number.` : `${bank.name} refused the account number.`;
}

/** When the rail did not take the instruction at all, or no finer reason is known. */
export function bankFailedReason(bankSlug: string | null): string {
  const bank = bankSlug ? findBank(bankSlug) : undefined;
  return `${bank?.name ?? 'The bank'} did not accept the payout.`;
}

/** A payment that ended without money, by how it was taken. */
export function paymentFailureReason(type: string, outcome: 'failed' | 'cancelled'): string {
  if (type === 'hosted') return outcome === 'cancelled' ? FAILURE_REASONS.checkoutCancelled : FAILURE_REASONS.checkoutFailed;
  return outcome === 'cancelled' ? FAILURE_REASONS.chargeCancelled : FAILURE_REASONS.walletDeclined;
}
