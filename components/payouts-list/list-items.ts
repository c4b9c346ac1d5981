import type { HistoryTotals } from '@/lib/dashboard/history-totals';
import type { KeysetPage } from '@/lib/dashboard/keyset-cursor';
import type { Payment } from '@/lib/payments/payment-view';
import type { PayoutRow } from '@/lib/payouts/payout-view';
import { bankName, paymentTypeLabel, payoutDestination, payoutTypeLabel, refundedWords } from '@/components/history/payout-labels';

/** What every history row has, payout or payment: words and figures only, so the live JSON stays small and carries no ids. */
export interface HistoryRow {
  reference: string;
  type: string;
  status: string;
  amount: number;
  serviceFee: number;
  currency: string;
  createdAt: string;
  failureReason: string | null;
  /** A paid payment refunded in full or in part, in words. */
  refunded?: string | null;
  /** The type as a catalogue key under Payouts.types or Payments.types, for another language than English. */
  typeKey: string;
  /** A wallet charge's wallet, named in `typeKey`'s words. */
  wallet?: string | null;
  /** `refunded` as a key: refunded or partlyRefunded. */
  refundedKey?: 'refunded' | 'partlyRefunded' | null;
}

export interface PayoutItem extends HistoryRow {
  /** The source card's number, or null for the business balance. */
  sourceCard: string | null;
  destination: string;
  /** The destination card's number when the money went to a card (card to card, or a top-up), for the reader's words around it. */
  destinationCard: string | null;
}

export interface PaymentItem extends HistoryRow {
  /** None yet for a shop order not paid: its card is found or issued when it is. */
  cardNumber: string | null;
  orderReference: string | null;
}

export interface ListPage<T> {
  rows: T[];
  prev: string | null;
  next: string | null;
  /** Count and sums of everything the filters match: refetched with the rows, so a live update moves them too. */
  totals?: HistoryTotals;
}

export function toPayoutItems(page: KeysetPage<PayoutRow>, names: Record<string, string>, totals?: HistoryTotals): ListPage<PayoutItem> {
  return {
    totals,
    prev: page.prev,
    next: page.next,
    rows: page.rows.map((p) => ({
      reference: p.reference,
      type: payoutTypeLabel(p),
      typeKey: p.isLedgerTopup ? 'topup' : p.payoutType,
      status: p.status,
      amount: p.amount,
      serviceFee: p.serviceFee,
      currency: p.currency,
      sourceCard: p.sourceCardNumber,
      destination: payoutDestination(p, p.merchantId ? names[p.merchantId] : null),
      destinationCard: p.isLedgerTopup || p.payoutType === 'card_to_card' ? p.destinationCardNumber : null,
      createdAt: new Date(p.createdAt).toISOString(),
      failureReason: p.status === 'failed' ? (p.failureReason ?? 'No reason was recorded.') : null,
    })),
  };
}

export function toPaymentItems(page: KeysetPage<Payment>, totals?: HistoryTotals): ListPage<PaymentItem> {
  return {
    totals,
    prev: page.prev,
    next: page.next,
    rows: page.rows.map((p) => ({
      reference: p.linkReference,
      type: paymentTypeLabel(p.type, p.paymentMethod),
      typeKey: p.type === 'hosted' ? 'hosted' : p.paymentMethod ? 'walletVia' : 'direct-charge',
      wallet: p.type === 'hosted' || !p.paymentMethod ? null : bankName(p.paymentMethod),
      status: p.status,
      amount: p.amount,
      serviceFee: p.serviceFee,
      currency: p.currency,
      cardNumber: p.cardNumber,
      orderReference: p.merchantReference,
      refunded: refundedWords(p.amount, p.refundedAmount),
      refundedKey: p.refundedAmount <= 0 ? null : p.refundedAmount >= p.amount ? 'refunded' : 'partlyRefunded',
      createdAt: new Date(p.createdAt).toISOString(),
      failureReason: p.status === 'failed' || p.status === 'cancelled' ? (p.failureReason ?? 'No reason was recorded.') : null,
    })),
  };
}

/** The TanStack Query keys of the dashboard's live views; the live stream invalidates them by what an event touches. */
export const liveKeys = {
  payouts: ['payouts'] as const,
  payoutList: (search: string) => ['payouts', 'list', search] as const,
  payments: ['payments'] as const,
  paymentList: (search: string) => ['payments', 'list', search] as const,
  deliveries: ['deliveries'] as const,
  deliveryLog: (page: number) => ['deliveries', 'log', page] as const,
};

/** The page's search parameters as one query string, in a stable order: the list query's key and its JSON route's query. */
export function searchString(params: Record<string, string | string[] | undefined>): string {
  const q = new URLSearchParams();
  for (const key of Object.keys(params).sort()) {
    const v = params[key];
    const value = Array.isArray(v) ? v[0] : v;
    if (value) q.set(key, value);
  }
  const s = q.toString();
  return s ? `?${s}` : '';
}
