import type { PayoutRow } from '@/lib/payouts/payout-view';
import { findBank } from '@/lib/providers/banks';

const PAYOUT_TYPE_LABELS: Record<string, string> = {
  card_to_card: 'Card to card',
  b2b: 'To another business',
  bank: 'Bank or wallet',
  topup: 'Top-up from business balance',
};

export function payoutTypeLabel(p: { payoutType: string; isLedgerTopup: boolean }): string {
  return p.isLedgerTopup ? PAYOUT_TYPE_LABELS.topup : (PAYOUT_TYPE_LABELS[p.payoutType] ?? 'Payout');
}

/** A bank's or wallet's name for its slug; an unknown slug reads as "Unknown bank", never as the slug. */
export const bankName = (slug: string | null) => (slug ? (findBank(slug)?.name ?? 'Unknown bank') : 'Unknown bank');

type DestinationFields = Pick<PayoutRow, 'isLedgerTopup' | 'payoutType' | 'destinationCardNumber' | 'bankSlug' | 'accountNumber'>;

/** Where the money went, in words; a business-to-business payout names the receiving business when it is known. */
export function payoutDestination(p: DestinationFields, merchantName?: string | null): string {
  if (p.isLedgerTopup || p.payoutType === 'card_to_card') return `Card ${p.destinationCardNumber}`;
  if (p.payoutType === 'b2b') return merchantName ?? 'Another business';
  return `${bankName(p.bankSlug)} · ${p.accountNumber}`;
}

/** A payment's kind in words: a hosted checkout link, or a charge to a named wallet. */
export function paymentTypeLabel(type: string, paymentMethod?: string | null): string {
  if (type === 'hosted') return 'Checkout link';
  return paymentMethod ? `Wallet charge · ${bankName(paymentMethod)}` : 'Wallet charge';
}

/** A paid payment that refunds have taken back from, in words ("Refunded", "Partly refunded"), or null when nothing was. */
export function refundedWords(amount: number, refunded: number): string | null {
  if (refunded <= 0) return null;
  return refunded >= amount ? 'Refunded' : 'Partly refunded';
}
