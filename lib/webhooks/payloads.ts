/**
 * SPEC.md's webhook payloads, built key by key in the spec's order:
 * event, status, mode; the type field, currency, amount; references and
 * context; created_at and updated_at last. Empty optional fields are left out.
 */

type PayoutEventType = 'payout.success' | 'payout.failed';
type PaymentEventType = 'payment.success' | 'payment.failed' | 'payment.cancelled' | RefundEventType;
type RefundEventType = 'payment.refunded' | 'payment.refund_failed';
export type HoldEventType = 'hold.created' | 'hold.captured' | 'hold.voided' | 'hold.expired';
export type EventType = PayoutEventType | PaymentEventType | 'card.redeemed' | HoldEventType | 'card.expired' | MessageEventType | 'order.paid';
type MessageEventType = 'message.sent' | 'message.failed';

export interface EventCustomer {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  phone_number?: string | null;
}

type Json = Record<string, unknown>;

function compact(obj: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out;
}

function customerObject(c: EventCustomer | undefined): Json | undefined {
  if (!c) return undefined;
  const out = compact({ first_name: c.first_name, last_name: c.last_name, email: c.email, phone_number: c.phone_number });
  return Object.keys(out).length ? out : undefined;
}

const iso = (d: Date | string) => new Date(d).toISOString();

export interface PayoutEventInput {
  status: 'success' | 'failed';
  mode: string;
  payoutType: 'card_to_card' | 'bank' | 'b2b';
  currency: string;
  amount: number;
  reference: string;
  customer?: EventCustomer;
  sourceCardNumber?: string | null;
  destinationCardNumber?: string | null;
  bankSlug?: string | null;
  accountNumber?: string | null;
  accountName?: string | null;
  merchantId?: string | null;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export function payoutEventPayload(p: PayoutEventInput): Json {
  const referenceField = p.payoutType === 'card_to_card' ? 'initiator_reference' : 'provider_reference';
  const meta =
    p.payoutType === 'card_to_card'
      ? compact({ source_card_number: p.sourceCardNumber, destination_card_number: p.destinationCardNumber })
      : p.payoutType === 'bank'
        ? compact({ source_card_number: p.sourceCardNumber, bank_slug: p.bankSlug, account_number: p.accountNumber, account_name: p.accountName })
        : compact({ source_card_number: p.sourceCardNumber, merchant_id: p.merchantId });
  return compact({
    event: `payout.${p.status}`,
    status: p.status,
    mode: p.mode,
    payout_type: p.payoutType,
    currency: p.currency,
    amount: p.amount,
    [referenceField]: p.reference,
    customer: customerObject(p.customer),
    meta: Object.keys(meta).length ? meta : undefined,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  });
}

export interface PaymentEventInput {
  status: 'success' | 'failed' | 'cancelled';
  mode: string;
  paymentType: string;
  currency: string;
  amount: number;
  serviceFee: number;
  merchantReference?: string | null;
  serviceReference: string;
  processorReference?: string | null;
  paymentMethod?: string | null;
  customer?: EventCustomer;
  createdAt: Date | string;
  updatedAt: Date | string;
}

export function paymentEventPayload(p: PaymentEventInput): Json {
  return compact({
    event: `payment.${p.status}`,
    status: p.status,
    mode: p.mode,
    payment_type: p.paymentType,
    currency: p.currency,
    amount: p.amount,
    service_fee: p.serviceFee,
    merchant_reference: p.merchantReference,
    service_reference: p.serviceReference,
    processor_reference: p.processorReference,
    payment_method: p.paymentMethod,
    customer: customerObject(p.customer),
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  });
}

export interface RefundEventInput {
  /** `refunded` when the card was debited and the payer is being repaid; `failed` when the rail refused and the card got it back. */
  status: 'refunded' | 'failed';
  mode: string;
  paymentType: string;
  currency: string;
  /** This refund's amount. */
  amount: number;
  refundReference: string;
  /** The payment's refunded total after this event, and what was paid (the fee is never refunded). */
  refundedAmount: number;
  paymentAmount: number;
  reason?: string | null;
  failureReason?: string | null;
  merchantReference?: string | null;
  serviceReference: string;
  processorReference?: string | null;
  paymentMethod?: string | null;
  customer?: EventCustomer;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** Beyond SPEC.md (CONTRACT 4a): a payment's refund, shaped like its payment events, keys in the same order. */
export function refundEventPayload(p: RefundEventInput): Json {
  return compact({
    event: p.status === 'refunded' ? 'payment.refunded' : 'payment.refund_failed',
    status: p.status,
    mode: p.mode,
    payment_type: p.paymentType,
    currency: p.currency,
    amount: p.amount,
    refund_reference: p.refundReference,
    refunded_amount: p.refundedAmount,
    payment_amount: p.paymentAmount,
    reason: p.reason,
    failure_reason: p.failureReason,
    merchant_reference: p.merchantReference,
    service_reference: p.serviceReference,
    processor_reference: p.processorReference,
    payment_method: p.paymentMethod,
    customer: customerObject(p.customer),
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  });
}

export interface RedemptionEventInput {
  mode: string;
  currency: string;
  amount: number;
  fee: number;
  reference: string;
  merchantReference?: string | null;
  cardNumber: string;
  /** What the card holds after the redemption. */
  availableAmount: number;
  /** The branch it happened at (additive, issue 45): null when none. */
  locationId?: number | null;
  customer?: EventCustomer;
  createdAt: Date | string;
}

/** Beyond SPEC.md (CONTRACT 4a): a card spent at its business, shaped like the other events, keys in the same order. */
export function redemptionEventPayload(p: RedemptionEventInput): Json {
  const body = compact({
    event: 'card.redeemed',
    status: 'success',
    mode: p.mode,
    currency: p.currency,
    amount: p.amount,
    fee: p.fee,
    net_amount: p.amount - p.fee,
    reference: p.reference,
    merchant_reference: p.merchantReference,
    card_number: p.cardNumber,
    available_amount: p.availableAmount,
    customer: customerObject(p.customer),
    created_at: iso(p.createdAt),
    updated_at: iso(p.createdAt),
  });
  return { ...body, location_id: p.locationId ?? null };
}

export interface HoldEventInput {
  type: HoldEventType;
  mode: string;
  /** The hold as the API answers it (lib/holds/till-hold-view.ts). */
  hold: {
    hold_reference: string;
    status: string;
    card_number: string;
    currency: string;
    amount: number;
    captured_amount: number;
    fee: number;
    merchant_reference?: string;
    expires_at: string;
    created_at: string;
    ended_at?: string;
    location_id?: number | null;
  };
  /** What the card holds after the event. */
  availableAmount: number;
  customer?: EventCustomer;
}

/** Beyond SPEC.md (CONTRACT 4a): a till's hold placed or ended, keys in the order of the other events; status is the hold's. */
export function holdEventPayload(p: HoldEventInput): Json {
  const { hold } = p;
  const captured = p.type === 'hold.captured';
  const body = compact({
    event: p.type,
    status: hold.status,
    mode: p.mode,
    currency: hold.currency,
    amount: hold.amount,
    captured_amount: captured ? hold.captured_amount : undefined,
    fee: captured ? hold.fee : undefined,
    hold_reference: hold.hold_reference,
    merchant_reference: hold.merchant_reference,
    card_number: hold.card_number,
    available_amount: p.availableAmount,
    expires_at: hold.expires_at,
    customer: customerObject(p.customer),
    created_at: hold.created_at,
    updated_at: hold.ended_at ?? hold.created_at,
  });
  return { ...body, location_id: hold.location_id ?? null };
}

export interface ExpiryEventInput {
  mode: string;
  currency: string;
  /** What the card held when it expired, moved to the business's breakage account. */
  amount: number;
  cardNumber: string;
  expiresAt: Date | string;
  customer?: EventCustomer;
  createdAt: Date | string;
}

/** Beyond SPEC.md (CONTRACT 4a): a card reached its expiry date; its balance became breakage and the card is read-only. */
export function expiryEventPayload(p: ExpiryEventInput): Json {
  return compact({
    event: 'card.expired',
    status: 'success',
    mode: p.mode,
    currency: p.currency,
    amount: p.amount,
    card_number: p.cardNumber,
    available_amount: 0,
    expires_at: iso(p.expiresAt),
    customer: customerObject(p.customer),
    created_at: iso(p.createdAt),
    updated_at: iso(p.createdAt),
  });
}

export interface MessageEventInput {
  type: MessageEventType;
  mode: string;
  kind: string;
  channel: string;
  messageReference: string;
  /** None for a shop order's receipt (a message of the order). */
  cardNumber: string | null;
  /** A shop order's gift or receipt. */
  orderReference?: string | null;
  /** Masked. */
  to: string;
  providerMessageId?: string | null;
  error?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** message.sent (the provider took it) and message.failed (it refused, or tries ran out): a message to a cardholder. */
export function messageEventPayload(p: MessageEventInput): Json {
  return {
    event: p.type,
    status: p.type === 'message.sent' ? 'sent' : 'failed',
    mode: p.mode,
    kind: p.kind,
    channel: p.channel,
    message_reference: p.messageReference,
    ...(p.cardNumber && { card_number: p.cardNumber }),
    ...(p.orderReference && { order_reference: p.orderReference }),
    to: p.to,
    ...(p.providerMessageId && { provider_message_id: p.providerMessageId }),
    ...(p.error && { error: p.error }),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export interface OrderEventInput {
  mode: string;
  currency: string;
  amount: number;
  orderReference: string;
  linkReference: string;
  cardNumber: string;
  recipient: { name: string; phoneNumber: string };
  buyerName: string;
  createdAt: Date | string;
  updatedAt: Date | string;
}

/** Beyond SPEC.md (CONTRACT 4a): a shop order was paid and its card credited. */
export function orderEventPayload(p: OrderEventInput): Json {
  return {
    event: 'order.paid',
    status: 'paid',
    mode: p.mode,
    currency: p.currency,
    amount: p.amount,
    order_reference: p.orderReference,
    service_reference: p.linkReference,
    card_number: p.cardNumber,
    recipient: { name: p.recipient.name, phone_number: p.recipient.phoneNumber },
    buyer: { name: p.buyerName },
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}
