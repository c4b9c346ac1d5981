import { z } from 'zod';
import { CURRENCIES, MODES, API_KEY_SCOPES } from '../validation';
import { EVENT_TYPES } from '../webhooks/list-events';

/**
 * The shapes the API answers with, as zod schemas registered under their
 * OpenAPI component names. Objects are strict so that the document (and the
 * contract test that checks answers against it) refuses a field nobody wrote
 * down; properties are listed in the order the API sends them.
 */
export const responseRegistry = z.registry<{ id: string; description?: string }>();

const reg = <S extends z.ZodType>(id: string, schema: S, description?: string): S => {
  responseRegistry.add(schema, description ? { id, description } : { id });
  return schema;
};

const timestamp = z.iso.datetime({ offset: true });
const currency = z.enum(CURRENCIES);
const mode = z.enum(MODES);
const minorUnits = z.int().min(0);
const lifecycle = z.enum(['pending', 'success', 'failed']);

export const giftCardSchema = reg(
  'GiftCard',
  z.strictObject({
    ref_id: z.string(),
    name: z.string().meta({ description: 'First and last name joined' }),
    card_number: z.string().regex(/^\d{16}$/),
    currency,
    status: z.union([z.literal(1), z.literal(3)]).meta({ description: '1 active; 3 disabled' }),
    last_four: z.string().regex(/^\d{4}$/),
    is_scoped: z.int(),
    business_id: z.int(),
    available_amount: minorUnits,
    held_amount: minorUnits.meta({
      description: 'Money set aside (a till’s hold, or a payout or adjustment awaiting approval); not in available_amount until released',
    }),
    created_at: timestamp,
    updated_at: timestamp,
    expires_at: timestamp.nullable().meta({
      description:
        "Beyond SPEC.md. The last millisecond the card can be used (the end of its last day in the business's time zone); null when it never expires. Past it the card is expired: status 3, balance moved to the business's breakage, read-only",
    }),
  }),
  'A gift card, keys in this order.',
);

export const cardPageSchema = reg(
  'CardPage',
  z.strictObject({ items: z.array(giftCardSchema), page: z.int().min(1), pages: z.int().min(0), size: z.int().min(1), total: z.int().min(0) }),
);

const pageOf = <S extends z.ZodType>(items: S) =>
  z.strictObject({ items: z.array(items), total: z.int().min(0), page: z.int().min(1), limit: z.int().min(1), pages: z.int().min(0) });

const payoutListItemSchema = reg(
  'PayoutListItem',
  z.strictObject({
    payout_type: z.enum(['card_to_card', 'bank', 'b2b']),
    status: lifecycle,
    currency,
    amount: minorUnits,
    service_fee: minorUnits,
    initiator_reference: z.string().optional().meta({ description: 'card_to_card only' }),
    provider_reference: z.string().optional().meta({ description: 'bank and b2b only' }),
    source_card_number: z.string().meta({ description: 'the card debited; ledger top-ups (POST /transfers) debit no card and are not listed here' }),
    destination_card_number: z.string().nullish().meta({ description: 'card_to_card only' }),
    merchant_id: z.string().nullish().meta({ description: 'b2b only' }),
    mode,
    created_at: timestamp,
    updated_at: timestamp,
  }),
  'Only the reference field matching payout_type is present.',
);

export const payoutPageSchema = reg('PayoutPage', pageOf(payoutListItemSchema));

export const payoutStatusSchema = reg(
  'PayoutStatus',
  z.strictObject({
    reference: z.string(),
    provider_ref: z.string(),
    amount: minorUnits,
    service_fee: minorUnits,
    currency,
    status: lifecycle,
    created_at: timestamp,
    completed_at: timestamp.nullable().meta({ description: 'null while pending' }),
  }),
);

const b2bPayoutCreatedSchema = reg(
  'B2BPayoutCreated',
  z.strictObject({ provider_reference: z.string(), status: z.literal('SUCCESS'), created_at: timestamp, updated_at: timestamp }),
);

const cardToCardPayoutCreatedSchema = reg(
  'CardToCardPayoutCreated',
  z.strictObject({
    initiator_reference: z.string(),
    source_card_number: z.string(),
    destination_card_number: z.string(),
    amount: minorUnits,
    service_fee: minorUnits,
    charge_payer: z.enum(['sender', 'receiver']),
    currency,
  }),
);

const bankPayoutCreatedSchema = reg('BankPayoutCreated', z.strictObject({ provider_reference: z.string(), status: z.literal('PENDING') }));

export const payoutCreatedSchema = reg('PayoutCreated', z.union([b2bPayoutCreatedSchema, cardToCardPayoutCreatedSchema, bankPayoutCreatedSchema]));

export const transferCreatedSchema = reg(
  'TransferCreated',
  z.strictObject({ provider_reference: z.string(), status: z.literal('PENDING'), created_at: timestamp, updated_at: timestamp }),
);

export const paymentRecordSchema = reg(
  'PaymentRecord',
  z.strictObject({
    link_reference: z.string(),
    merchant_reference: z.string().optional(),
    provider_reference: z.string().optional(),
    status: lifecycle,
    currency,
    amount: minorUnits,
    service_fee: minorUnits,
    payment_method: z.string().optional(),
    card_number: z.string(),
    refunded_amount: minorUnits.meta({ description: 'Beyond SPEC.md: what refunds have taken back of amount so far (0 when none)' }),
    mode,
    created_at: timestamp,
    updated_at: timestamp,
  }),
  'Empty optional fields are left out. A cancelled payment reads as failed here; its webhook says cancelled.',
);

export const paymentPageSchema = reg('PaymentPage', pageOf(paymentRecordSchema));

export const paymentCreatedSchema = reg(
  'PaymentCreated',
  z.strictObject({
    link_reference: z.string(),
    status: z.literal('PENDING'),
    amount: minorUnits,
    service_fee: minorUnits,
    currency,
    card_number: z.string(),
    merchant_reference: z.string().optional(),
    checkout_url: z.url().optional().meta({ description: 'hosted only: send the customer here' }),
    payment_method: z.string().optional().meta({ description: 'direct-charge only' }),
    next_action: z
      .strictObject({ type: z.enum(['ussd', 'otp']), message: z.string() })
      .optional()
      .meta({
        description:
          'live direct-charge only: ussd = the customer approves the request on their phone; otp = send the code they received to POST /card/payment/{link_reference}/authorize',
      }),
  }),
);

export const bankSchema = reg('Bank', z.strictObject({ slug: z.string(), name: z.string(), type: z.enum(['bank', 'wallet']), currencies: z.array(currency) }));

const customer = z
  .strictObject({ first_name: z.string().optional(), last_name: z.string().optional(), email: z.string().optional(), phone_number: z.string().optional() })
  .meta({ description: 'The card holder; empty fields are left out' });

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

export const refundSchema = reg(
  'Refund',
  z.strictObject({
    refund_reference: z.string(),
    link_reference: z.string(),
    status: z.enum(['pending', 'succeeded', 'failed']).meta({
      description: 'test mode: succeeded at once; live: pending until Chapa takes the refund, failed (and the card credited back) if it refuses',
    }),
    currency,
    amount: minorUnits,
    reason: z.string().optional(),
    refunded_amount: minorUnits.meta({ description: 'What the payment has had refunded in all, this refund included' }),
    refundable_amount: minorUnits.meta({ description: 'What is left to refund of the payment (its amount; the fee is never refunded)' }),
    failure_reason: z.string().optional(),
    mode,
    created_at: timestamp,
    updated_at: timestamp,
    completed_at: timestamp.optional(),
  }),
  'Empty optional fields are left out.',
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

export const redemptionSchema = reg(
  'Redemption',
  z.strictObject({
    reference: z.string().meta({ description: 'The movement’s reference (rdm_…), in the card’s story and the business statement' }),
    card_number: z.string().regex(/^\d{16}$/),
    currency,
    amount: minorUnits.meta({ description: 'What left the card' }),
    fee: minorUnits.meta({ description: 'The redemption fee of your fee schedule, paid by the business out of the amount (0 without a rule)' }),
    net_amount: minorUnits.meta({ description: 'What reached the business account: amount less fee' }),
    merchant_reference: z.string().optional(),
    available_amount: minorUnits.meta({ description: 'What the card holds after this redemption' }),
    held_amount: minorUnits,
    created_at: timestamp,
  }),
  'Beyond SPEC.md. Empty optional fields are left out.',
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
  }),
  'Beyond SPEC.md. card.redeemed: a card was spent at your business; the amount left the card and reached your business account less the fee.',
);

const holdStatus = z.enum(['held', 'captured', 'voided', 'expired']);

export const holdSchema = reg(
  'Hold',
  z.strictObject({
    hold_reference: z.string().meta({ description: 'hld_…: the path of capture, void and GET' }),
    status: holdStatus.meta({ description: 'held until captured, voided or expired; the three are final' }),
    card_number: z.string().regex(/^\d{16}$/),
    currency,
    amount: minorUnits.meta({ description: 'What was set aside' }),
    captured_amount: minorUnits.meta({ description: 'What a capture spent (0 otherwise); the rest went back to the card' }),
    fee: minorUnits.meta({ description: 'The redemption fee of the capture, paid by the business out of the captured amount (0 otherwise)' }),
    merchant_reference: z.string().optional(),
    expires_at: timestamp.meta({ description: 'A capture after this is refused; the service releases the hold within a minute' }),
    created_at: timestamp,
    ended_at: timestamp.optional().meta({ description: 'When it was captured, voided or expired' }),
  }),
  'Beyond SPEC.md. A till’s hold on a card. Empty optional fields are left out.',
);

export const holdPageSchema = reg('HoldPage', pageOf(holdSchema));

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
    payload: z.union([paymentEventSchema, refundEventSchema, payoutEventSchema, redemptionEventSchema, holdEventSchema, expiryEventSchema]),
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

export const eventPageSchema = reg('EventPage', pageOf(eventItemSchema));

const validationErrorsSchema = reg(
  'ValidationErrors',
  z.record(z.string(), z.string()).meta({ description: 'One message per field name (body for a malformed body)' }),
);

reg('SuccessEnvelope', z.strictObject({ status: z.literal('success'), message: z.string(), data: z.unknown() }));

reg(
  'ErrorEnvelope',
  z.strictObject({
    status: z.literal('error'),
    message: z.string().meta({ description: 'The title of the error' }),
    error: z.string().meta({ description: 'A sentence saying what to do' }),
    request_id: z.string().optional().meta({ description: 'On 500 answers: quote it when reporting' }),
  }),
);

reg('ValidationErrorEnvelope', z.strictObject({ status: z.literal('error'), message: z.literal('Validation error'), error: validationErrorsSchema }));

/* The provider back office. */

export const businessPageSchema = reg(
  'BusinessPage',
  pageOf(
    z.strictObject({
      id: z.int(),
      merchant_id: z.string(),
      name: z.string(),
      time_zone: z.string(),
      country: z.string(),
      created_at: timestamp,
    }),
  ),
);

export const businessCreatedSchema = reg(
  'BusinessCreated',
  z.strictObject({
    id: z.int(),
    merchant_id: z.string(),
    name: z.string(),
    api_keys: z.strictObject({ test: z.string().regex(/^sk_test_/), live: z.string().regex(/^sk_live_/) }),
    owner: z.strictObject({ id: z.int(), email: z.string() }).optional(),
  }),
);

export const apiKeyIssuedSchema = reg(
  'ApiKeyIssued',
  z.strictObject({
    key: z.string().regex(/^sk_(test|live)_/),
    name: z.string(),
    mode,
    active: z.boolean(),
    gift_cards_enabled: z.boolean(),
    scopes: z.array(z.enum(API_KEY_SCOPES)).min(1),
  }),
);

export const userCreatedSchema = reg(
  'UserCreated',
  z.strictObject({ id: z.int(), email: z.string(), role: z.enum(['owner', 'operator', 'finance', 'support']), business_id: z.int() }),
);

export const feeScheduleResultSchema = reg(
  'FeeSchedule',
  z.strictObject({
    mode,
    rules: z.array(
      z.strictObject({
        applies_to: z.enum(['card_to_card', 'b2b', 'bank', 'payment']),
        percent: z.string().meta({ description: 'Exact decimal, e.g. "1.5"' }),
        fixed: minorUnits,
        min: minorUnits.optional(),
        max: minorUnits.optional(),
      }),
    ),
  }),
);

export const webhookEndpointSchema = reg('WebhookEndpoint', z.strictObject({ mode, url: z.string(), secret: z.string() }));

export const webhookRotatedSchema = reg('WebhookRotated', z.strictObject({ mode, url: z.string(), secret: z.string(), previous_secret_expires_at: timestamp }));

const limitValue = z.int().min(100).nullable();
const currencyLimits = z.strictObject({ currency, max_payout: limitValue, daily_payout: limitValue, max_card_balance: limitValue });
export const limitsSetSchema = reg('LimitsSet', z.strictObject({ mode, ...currencyLimits.shape }));
export const limitsSchema = reg('Limits', z.strictObject({ mode, limits: z.array(currencyLimits) }));

export const businessLocaleSchema = reg(
  'BusinessLocale',
  z.strictObject({
    id: z.int(),
    time_zone: z.string(),
    country: z.string(),
    customer_language: z.enum(['en', 'am']),
    calendar: z.enum(['gregorian', 'ethiopic']),
  }),
);

export const depositResultSchema = reg('Deposit', z.strictObject({ mode, currency, amount: minorUnits, balance: z.int() }));

export const deliveryPageSchema = reg(
  'DeliveryPage',
  pageOf(
    z.strictObject({
      event_id: z.string(),
      type: z.string(),
      endpoint: z.enum(['business', 'dashboard']),
      url: z.string(),
      state: z.enum(['pending', 'delivered', 'failed']),
      attempts: z.array(
        z.strictObject({
          attempted_at: z.string(),
          status_code: z.int().nullable(),
          duration_ms: z.int().nullable(),
          error: z.string().nullable(),
          response_excerpt: z.string().nullable(),
        }),
      ),
      next_attempt_at: timestamp.nullable(),
      delivered_at: timestamp.nullable(),
      created_at: timestamp.nullable(),
    }),
  ),
);

export const replayResultSchema = reg(
  'ReplayResult',
  z.union([
    z.strictObject({ mode, event_id: z.string(), deliveries: z.int().min(0) }),
    z.strictObject({ mode, from: timestamp, to: timestamp, deliveries: z.int().min(0) }),
  ]),
);

/** An item a batch refused: the error envelope the single call would have answered (its HTTP status is not repeated). */
const batchItemErrorSchema = reg(
  'BatchItemError',
  z.strictObject({
    status: z.literal('error'),
    message: z.string().meta({ description: 'The error title of SPEC.md, as the single call answers it' }),
    error: z.union([z.string(), z.record(z.string(), z.string())]).meta({ description: 'A sentence, or one message per field for Validation error' }),
  }),
);

export const cardBatchSchema = reg(
  'CardBatchResults',
  z.strictObject({
    results: z
      .array(z.union([giftCardSchema, batchItemErrorSchema]))
      .meta({ description: 'One per item of cards, in the same order: the card as POST /card answers it, or that call’s error' }),
  }),
);

export const payoutBatchSchema = reg(
  'PayoutBatchResults',
  z.strictObject({
    results: z
      .array(z.union([payoutCreatedSchema, batchItemErrorSchema]))
      .meta({ description: 'One per item of payouts, in the same order: what POST /card/payouts answers, or that call’s error' }),
  }),
);

export type GiftCard = z.output<typeof giftCardSchema>;
export type CardPage = z.output<typeof cardPageSchema>;
export type PayoutPage = z.output<typeof payoutPageSchema>;
export type PayoutStatus = z.output<typeof payoutStatusSchema>;
export type PayoutCreated = z.output<typeof payoutCreatedSchema>;
export type CardBatchResults = z.output<typeof cardBatchSchema>;
export type PayoutBatchResults = z.output<typeof payoutBatchSchema>;
export type B2BPayoutCreated = z.output<typeof b2bPayoutCreatedSchema>;
export type CardToCardPayoutCreated = z.output<typeof cardToCardPayoutCreatedSchema>;
export type BankPayoutCreated = z.output<typeof bankPayoutCreatedSchema>;
export type TransferCreated = z.output<typeof transferCreatedSchema>;
export type PaymentRecord = z.output<typeof paymentRecordSchema>;
export type PaymentPage = z.output<typeof paymentPageSchema>;
export type PaymentCreated = z.output<typeof paymentCreatedSchema>;
export type Refund = z.output<typeof refundSchema>;
export type Bank = z.output<typeof bankSchema>;
export type EventItem = z.output<typeof eventItemSchema>;
export type EventPage = z.output<typeof eventPageSchema>;
export type PaymentEvent = z.output<typeof paymentEventSchema>;
export type PayoutEvent = z.output<typeof payoutEventSchema>;
export type RefundEvent = z.output<typeof refundEventSchema>;
export type Redemption = z.output<typeof redemptionSchema>;
export type RedemptionEvent = z.output<typeof redemptionEventSchema>;
export type Hold = z.output<typeof holdSchema>;
export type HoldPage = z.output<typeof holdPageSchema>;
export type HoldEvent = z.output<typeof holdEventSchema>;
export type ExpiryEvent = z.output<typeof expiryEventSchema>;
