import type { PayoutRow } from '@/lib/payouts/payout-view';

export const PAYOUT_TYPE_LABELS: Record<string, string> = {
  card_to_card: 'Card to card',
  b2b: 'B2B',
  bank: 'Bank',
  topup: 'Ledger top-up',
};

export function payoutTypeLabel(p: Pick<PayoutRow, 'payoutType' | 'isLedgerTopup'>): string {
  return p.isLedgerTopup ? PAYOUT_TYPE_LABELS.topup : (PAYOUT_TYPE_LABELS[p.payoutType] ?? p.payoutType);
}

export function payoutDestination(p: PayoutRow): string {
  if (p.isLedgerTopup) return `Card ${p.destinationCardNumber}`;
  if (p.payoutType === 'card_to_card') return `Card ${p.destinationCardNumber}`;
  if (p.payoutType === 'b2b') return `Merchant ${p.merchantId}`;
  return `${p.bankSlug} · ${p.accountNumber}`;
}

/** Who bore the fee, in words: SPEC.md's charge_payer table. */
export function feePayerText(chargePayer: string): string {
  switch (chargePayer) {
    case 'sender':
      return 'Sender: added to what the source card pays';
    case 'receiver':
      return 'Receiver: taken from what the destination gets';
    case 'business':
      return 'Business: taken from what the destination gets';
    case 'customer':
      return 'Customer: added to what the source card pays';
    default:
      return chargePayer;
  }
}

/** The payer whose fee comes out of the amount rather than on top of it. */
export const feeFromAmount = (chargePayer: string) => chargePayer === 'receiver' || chargePayer === 'business';
