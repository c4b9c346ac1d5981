import { z } from 'zod';
import { MESSAGE_CHANNELS, MESSAGE_KINDS } from '../../messages/message-kinds';
import { EVENT_TYPES, filtersSchema } from '../../webhooks/list-events';
import { defineContracts, pageParams } from './contract';
import { holdStatus } from './holds';
import { currency, customer, exampleTimes, minorUnits, mode, pageOf, reg, timestamp } from './schemas';

const paymentEventFields = {
  mode,
  payment_type: z.string().meta({ description: 'link for the hosted page, direct_charge for a wallet charge' }),
  currency,
  amount: minorUnits,
  service_fee: minorUnits,
  merchant_reference: z.string().optional(),
  service_reference: z.string().meta({ description: 'The link_reference of the payment API' }),
  processor_reference: z.string().optional(),
  payment_method: z.string().optional(),
  customer: customer.optional(),
  created_at: timestamp,
  updated_at: timestamp,
};

export const paymentEventSchema = reg(
  'PaymentEvent',
  z.union(
    (['success', 'failed', 'cancelled'] as const).map((s) => z.strictObject({ event: z.literal(`payment.${s}`), status: z.literal(s), ...paymentEventFields })),
  ),
  'payment.success, payment.failed and payment.cancelled: keys in this order, empty optional fields left out.',
);

export const refundEventSchema = reg(
  'RefundEvent',
  z.union(
    (
      [
        ['refunded', 'refunded'],
        ['refund_failed', 'failed'],
      ] as const
    ).map(([event, status]) =>
      z.strictObject({
        event: z.literal(`payment.${event}`),
        status: z.literal(status),
        mode,
        payment_type: paymentEventFields.payment_type,
        currency,
        amount: minorUnits.meta({ description: 'This refund’s amount' }),
        refund_reference: z.string(),
        refunded_amount: minorUnits.meta({ description: 'The payment’s refunded total after this event' }),
        payment_amount: minorUnits,
        reason: z.string().optional(),
        failure_reason: z.string().optional(),
        merchant_reference: z.string().optional(),
        service_reference: paymentEventFields.service_reference,
        processor_reference: z.string().optional(),
        payment_method: z.string().optional(),
        customer: customer.optional(),
        created_at: timestamp,
        updated_at: timestamp,
      }),
    ),
  ),
  'Beyond SPEC.md. payment.refunded: the card was debited and the payer is being repaid; payment.refund_failed: the rail refused a live refund and the debit went back.',
);

export const redemptionEventSchema = reg(
  'RedemptionEvent',
  z.strictObject({
    event: z.literal('card.redeemed'),
    status: z.literal('success'),
    mode,
    currency,
    amount: minorUnits,
    fee: minorUnits,
    net_amount: minorUnits,
    reference: z.string(),
    merchant_reference: z.string().optional(),
    card_number: z.string(),
    available_amount: minorUnits.meta({ description: 'What the card holds after this redemption' }),
    customer: customer.optional(),
    created_at: timestamp,
    updated_at: timestamp,
    location_id: z.int().nullable().meta({ description: 'The branch (GET /locations) it happened at; null when none was named' }),
  }),
  'Beyond SPEC.md. card.redeemed: a card was spent at your business; the amount left the card and reached your business account less the fee.',
);

export const holdEventSchema = reg(
  'HoldEvent',
  z.strictObject({
    event: z.enum(['hold.created', 'hold.captured', 'hold.voided', 'hold.expired']),
    status: holdStatus,
    mode,
    currency,
    amount: minorUnits,
    captured_amount: minorUnits.optional().meta({ description: 'hold.captured only' }),
    fee: minorUnits.optional().meta({ description: 'hold.captured only' }),
    hold_reference: z.string(),
    merchant_reference: z.string().optional(),
    card_number: z.string(),
    available_amount: minorUnits.meta({ description: 'What the card holds available after this step' }),
    expires_at: timestamp,
    customer: customer.optional(),
    created_at: timestamp,
    updated_at: timestamp,
    location_id: z.int().nullable().meta({ description: 'The branch (GET /locations) it happened at; null when none was named' }),
  }),
  'Beyond SPEC.md. hold.created, hold.captured, hold.voided, hold.expired: a till’s hold placed or ended; status is the hold’s.',
);

export const expiryEventSchema = reg(
  'ExpiryEvent',
  z.strictObject({
    event: z.literal('card.expired'),
    status: z.literal('success'),
    mode,
    currency,
    amount: minorUnits.meta({ description: "What the card held when it expired, moved to the business's breakage account" }),
    card_number: z.string(),
    available_amount: z.literal(0),
    expires_at: timestamp,
    customer: customer.optional(),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  'Beyond SPEC.md. card.expired: a card reached its expiry date; its whole balance became breakage and the card is read-only (status 3).',
);

export const messageEventSchema = reg(
  'MessageEvent',
  z.strictObject({
    event: z.enum(['message.sent', 'message.failed']),
    status: z.enum(['sent', 'failed']),
    mode,
    kind: z.enum(MESSAGE_KINDS),
    channel: z.enum(MESSAGE_CHANNELS),
    message_reference: z.string(),
    card_number: z.string().optional().meta({ description: 'The card it is about; absent for a shop order’s receipt to its buyer' }),
    order_reference: z.string().optional().meta({ description: 'A shop order’s gift (to the recipient) or receipt (to the buyer)' }),
    to: z.string().meta({ description: 'Masked' }),
    provider_message_id: z.string().optional(),
    error: z.string().optional().meta({ description: 'message.failed: why, in the provider’s words where it gave some' }),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  'Beyond SPEC.md. message.sent: the SMS provider (or the mail server) took a message to a cardholder; message.failed: it refused it, reported it undelivered, or the tries ran out.',
);

export const orderEventSchema = reg(
  'OrderEvent',
  z.strictObject({
    event: z.literal('order.paid'),
    status: z.literal('paid'),
    mode,
    currency,
    amount: minorUnits.meta({ description: 'What the card was credited with' }),
    order_reference: z.string(),
    service_reference: z.string().meta({ description: "The link_reference of the order's payment" }),
    card_number: z.string().meta({ description: 'The card the order credited: found by the recipient phone, or issued for it' }),
    recipient: z.strictObject({ name: z.string(), phone_number: z.string() }),
    buyer: z.strictObject({ name: z.string() }),
    created_at: timestamp,
    updated_at: timestamp,
  }),
  "Beyond SPEC.md. order.paid: a card bought on the business's shop was paid for and credited; the card's own events (payment.success) come with it.",
);

const payoutEvent = <T extends string, R extends string, M extends z.ZodRawShape>(type: T, reference: R, meta: M) =>
  z.union(
    (['success', 'failed'] as const).map((s) =>
      z.strictObject({
        event: z.literal(`payout.${s}`),
        status: z.literal(s),
        mode,
        payout_type: z.literal(type),
        currency,
        amount: minorUnits,
        ...({ [reference]: z.string() } as Record<R, z.ZodString>),
        customer: customer.optional(),
        meta: z.strictObject(meta).optional().meta({ description: 'Destination details only' }),
        created_at: timestamp,
        updated_at: timestamp,
      }),
    ),
  );

export const payoutEventSchema = reg(
  'PayoutEvent',
  z.union([
    payoutEvent('card_to_card', 'initiator_reference', { source_card_number: z.string(), destination_card_number: z.string() }),
    payoutEvent('bank', 'provider_reference', {
      source_card_number: z.string().optional().meta({ description: 'absent for a ledger top-up' }),
      bank_slug: z.string(),
      account_number: z.string(),
      account_name: z.string(),
    }),
    payoutEvent('b2b', 'provider_reference', { source_card_number: z.string(), merchant_id: z.string() }),
  ]),
  'payout.success and payout.failed: keys in this order; one primary reference by payout_type.',
);

const eventItemSchema = reg(
  'EventItem',
  z.strictObject({
    id: z.string().meta({ description: 'The webhook-id of every delivery of this event' }),
    type: z.enum(EVENT_TYPES),
    created_at: timestamp,
    payload: z.union([
      paymentEventSchema,
      refundEventSchema,
      payoutEventSchema,
      redemptionEventSchema,
      holdEventSchema,
      expiryEventSchema,
      messageEventSchema,
      orderEventSchema,
    ]),
    delivery: z
      .strictObject({
        state: z.enum(['pending', 'delivered', 'failed', 'none']),
        attempts: z.int().min(0),
        last_attempt_at: timestamp.optional(),
        delivered_at: timestamp.optional(),
      })
      .meta({ description: 'Delivery to your registered URL; none when no URL was registered' }),
  }),
);

const eventPageSchema = reg('EventPage', pageOf(eventItemSchema));

export type EventItem = z.output<typeof eventItemSchema>;
export type EventPage = z.output<typeof eventPageSchema>;
export type PaymentEvent = z.output<typeof paymentEventSchema>;
export type PayoutEvent = z.output<typeof payoutEventSchema>;
export type RefundEvent = z.output<typeof refundEventSchema>;
export type RedemptionEvent = z.output<typeof redemptionEventSchema>;
export type HoldEvent = z.output<typeof holdEventSchema>;
export type ExpiryEvent = z.output<typeof expiryEventSchema>;
export type MessageEvent = z.output<typeof messageEventSchema>;
export type OrderEvent = z.output<typeof orderEventSchema>;

const { created, updated } = exampleTimes;

export const paymentEventExample: PaymentEvent = {
  event: 'payment.success',
  status: 'success',
  mode: 'test',
  payment_type: 'link',
  currency: 'ETB',
  amount: 10000,
  service_fee: 160,
  merchant_reference: 'order-1042',
  service_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: created,
  updated_at: updated,
};

export const refundEventExample: RefundEvent = {
  event: 'payment.refunded',
  status: 'refunded',
  mode: 'test',
  payment_type: 'link',
  currency: 'ETB',
  amount: 2500,
  refund_reference: 'rfd_4Kq9sT2vB7xN1mC8pL3dF6hJ',
  refunded_amount: 2500,
  payment_amount: 10000,
  reason: 'Order 1005 returned',
  merchant_reference: 'order-1042',
  service_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: updated,
  updated_at: updated,
};

export const payoutEventExamples: Record<'card_to_card' | 'bank' | 'b2b', PayoutEvent> = {
  card_to_card: {
    event: 'payout.success',
    status: 'success',
    mode: 'test',
    payout_type: 'card_to_card',
    currency: 'ETB',
    amount: 5000,
    initiator_reference: 'c2c_Hn4v0QwE2rYd8KzM',
    customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
    meta: { source_card_number: '4921583047261138', destination_card_number: '5104920038817265' },
    created_at: created,
    updated_at: created,
  },
  bank: {
    event: 'payout.failed',
    status: 'failed',
    mode: 'test',
    payout_type: 'bank',
    currency: 'ETB',
    amount: 20000,
    provider_reference: 'bnk_Pq8sW2nX4cV7bR1e',
    customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
    meta: { source_card_number: '4921583047261138', bank_slug: 'cbe', account_number: '1000123450000', account_name: 'Abebe Kebede' },
    created_at: created,
    updated_at: updated,
  },
  b2b: {
    event: 'payout.success',
    status: 'success',
    mode: 'test',
    payout_type: 'b2b',
    currency: 'ETB',
    amount: 7500,
    provider_reference: 'b2b_7Jq2xVb9LkP3sT8a',
    customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
    meta: { source_card_number: '4921583047261138', merchant_id: 'mer_Q2w3E4r5T6y7U8i9' },
    created_at: created,
    updated_at: created,
  },
};

const eventItemExample: EventItem = {
  id: 'msg_3Fh8Kd0Lq2Zx9Vb7Nm1cR4tY',
  type: 'payment.success',
  created_at: updated,
  payload: paymentEventExample,
  delivery: { state: 'delivered', attempts: 1, last_attempt_at: updated, delivered_at: updated },
};

export const expiryEventExample: ExpiryEvent = {
  event: 'card.expired',
  status: 'success',
  mode: 'test',
  currency: 'ETB',
  amount: 7450,
  card_number: '4000123412341234',
  available_amount: 0,
  expires_at: '2026-06-01T20:59:59.999Z',
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: '2026-06-01T21:00:12.031Z',
  updated_at: '2026-06-01T21:00:12.031Z',
};

export const messageEventExample: MessageEvent = {
  event: 'message.sent',
  status: 'sent',
  mode: 'live',
  kind: 'money_added',
  channel: 'sms',
  message_reference: 'chm_5f0c1e2a3b4d4c6e8f9a0b1c2d3e4f5a',
  card_number: '4000123412341234',
  to: '+251******567',
  provider_message_id: '8d6e7f10-2b3c-4d5e-9f60-718293a4b5c6',
  created_at: created,
  updated_at: updated,
};

export const orderEventExample: OrderEvent = {
  event: 'order.paid',
  status: 'paid',
  mode: 'test',
  currency: 'ETB',
  amount: 50000,
  order_reference: 'ord_7Hn2kQ9xL4mP8sV1cR6tY3wB',
  service_reference: 'pay_3mV8qL1xT6nB9cK4',
  card_number: '4000123412341234',
  recipient: { name: 'Hanna Tesfaye', phone_number: '+251911234567' },
  buyer: { name: 'Abebe Kebede' },
  created_at: '2026-06-01T09:12:40.118Z',
  updated_at: '2026-06-01T09:14:02.540Z',
};

export const redemptionEventExample: RedemptionEvent = {
  event: 'card.redeemed',
  status: 'success',
  mode: 'test',
  currency: 'ETB',
  amount: 2550,
  fee: 0,
  net_amount: 2550,
  reference: 'rdm_8Hw2kQ5tR9vL3xN7bM1cZ4pD',
  merchant_reference: 'till-7 receipt 0042',
  card_number: '4000123412341234',
  available_amount: 7450,
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: updated,
  updated_at: updated,
  location_id: 3,
};

export const holdEventExample: HoldEvent = {
  event: 'hold.captured',
  status: 'captured',
  mode: 'test',
  currency: 'ETB',
  amount: 5000,
  captured_amount: 3750,
  fee: 0,
  hold_reference: 'hld_3Tq9wE6rY1uI8oP2aS5dF7gH',
  merchant_reference: 'pump 4',
  card_number: '4000123412341234',
  available_amount: 6250,
  expires_at: '2025-06-08T09:30:02.512Z',
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: updated,
  updated_at: '2025-06-01T09:41:17.030Z',
  location_id: 3,
};

/** The webhook events of a business and mode, for a receiver catching up. */
export const eventContracts = defineContracts({
  listEvents: {
    method: 'get',
    path: '/events',
    scope: 'read',
    tag: 'Events',
    summary: 'List webhook events',
    description:
      'Every event of your business and mode, newest first, with the state of its delivery to your URL. A receiver that was down catches up here (undelivered=true) instead of waiting for retries.',
    query: [
      ...pageParams,
      { name: 'type', description: 'Only events of this kind', schema: filtersSchema.shape.type },
      { name: 'undelivered', description: 'true: only events not yet delivered to your URL', schema: filtersSchema.shape.undelivered },
    ],
    success: {
      status: 200,
      message: 'Events retrieved successfully',
      data: eventPageSchema,
      examples: { page: { items: [eventItemExample], total: 1, page: 1, limit: 15, pages: 1 } },
    },
    errors: ['validation_error'],
  },
});
