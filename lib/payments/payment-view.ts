import type { payments } from '../db/schema';

export type Payment = typeof payments.$inferSelect;
export type PaymentType = 'hosted' | 'direct-charge';
export type PaymentOutcome = 'success' | 'failed' | 'cancelled';

/** SPEC.md's payment record, keys in the spec's order; empty optional fields are left out, as in webhooks. */
export interface PaymentRecord {
  link_reference: string;
  merchant_reference?: string;
  provider_reference?: string;
  status: 'pending' | 'success' | 'failed';
  currency: string;
  amount: number;
  service_fee: number;
  payment_method?: string;
  card_number: string;
  /** Beyond SPEC.md (CONTRACT 4a): what refunds have taken back of `amount` so far. */
  refunded_amount: number;
  mode: string;
  created_at: string;
  updated_at: string;
}

/**
 * The record knows only pending, success and failed (SPEC.md); a cancelled
 * payment reads as failed there, and only its webhook says `cancelled`.
 */
export function recordStatus(status: string): PaymentRecord['status'] {
  if (status === 'success' || status === 'pending') return status;
  return 'failed';
}

export function toPaymentRecord(p: Payment): PaymentRecord {
  return {
    link_reference: p.linkReference,
    ...(p.merchantReference ? { merchant_reference: p.merchantReference } : {}),
    ...(p.providerReference ? { provider_reference: p.providerReference } : {}),
    status: recordStatus(p.status),
    currency: p.currency,
    amount: p.amount,
    service_fee: p.serviceFee,
    ...(p.paymentMethod ? { payment_method: p.paymentMethod } : {}),
    // A shop order's payment has no card until it is paid.
    card_number: p.cardNumber ?? '',
    refunded_amount: p.refundedAmount,
    mode: p.mode,
    created_at: new Date(p.createdAt).toISOString(),
    updated_at: new Date(p.updatedAt).toISOString(),
  };
}

/** The webhook's payment_type: SPEC.md's `link` for the hosted page; direct wallet charges are `direct_charge`. */
export const eventPaymentType = (type: string) => (type === 'hosted' ? 'link' : 'direct_charge');
