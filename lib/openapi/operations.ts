import { z } from 'zod';
import { createBusinessSchema, issueKeySchema } from '../admin/businesses';
import { pageQuery, DEFAULT_LIMIT } from '../pagination';
import { newUserSchema } from '../auth/users';
import { MAX_CARDS_PER_BATCH, MAX_PAYOUTS_PER_BATCH } from '../batches/batch-limits';
import { createCardSchema } from '../cards/create-card';
import { cardStatusSchema } from '../cards/set-card-status';
import type { ErrorCode } from '../errors';
import { feeScheduleSchema } from '../fees/fee-schedule';
import { captureRequestSchema, holdRequestSchema } from '../holds/till-hold-request';
import { depositSchema } from '../ledger/deposit';
import { limitsSchema } from '../limits/business-limits';
import { businessLocaleSchema as businessLocaleRequestSchema } from '../business/business-locale.validation';
import { authorizePaymentSchema } from '../payments/authorize-live-payment';
import { completeTestPaymentSchema } from '../payments/complete-test-payment';
import { createPaymentSchema } from '../payments/create-payment';
import { redemptionRequestSchema } from '../redemptions/redemption-request';
import { refundRequestSchema } from '../refunds/refund-request';
import { settleRefundByHandSchema } from '../refunds/settle-refund-by-hand';
import { schemas as payoutRequestSchemas } from '../payouts/payout-request';
import { transferSchema } from '../payouts/create-transfer';
import { settleSchema } from '../payouts/settle-payout-as-provider';
import { modeSchema } from '../validation';
import { registerWebhookSchema } from '../webhooks/endpoints';
import { filtersSchema } from '../webhooks/list-events';
import { replayFailedSchema, replayOneSchema } from '../webhooks/replay';
import { rotateSecretSchema } from '../webhooks/rotate-secret';
import * as ex from './examples';
import * as r from './response-schemas';

export type Api = 'v1' | 'admin';
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A request body: one schema, or several alternatives chosen by the fields sent. */
interface RequestBody {
  /** Component name to schema; more than one means "one of these". */
  schemas: Record<string, z.ZodType>;
  /** One example per alternative, by name. */
  examples: Record<string, unknown>;
}

interface QueryParam {
  name: string;
  description: string;
  /** The schema the route parses this parameter with. */
  schema: z.ZodType;
  default?: string | number;
}

export interface Operation {
  api: Api;
  method: HttpMethod;
  /** Relative to the API's server: /card/{card_number}. */
  path: string;
  /** Also the typed client's method name. */
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  pathParams?: Record<string, string>;
  query?: QueryParam[];
  body?: RequestBody;
  success: {
    status: number;
    /** The `message` of the success envelope; several when it depends on the request. */
    message: string | string[];
    /** A registered response schema, an array of one, or null for `data: null`. */
    data: z.ZodType | null;
    examples: Record<string, unknown>;
  };
  /** The errors this operation's own code raises, beyond the ones every operation of its API can give. */
  errors: ErrorCode[];
  /** No authentication: documentation. */
  public?: boolean;
}

const page: QueryParam[] = [
  { name: 'page', description: 'Page number, 1-based', schema: pageQuery.shape.page, default: 1 },
  { name: 'limit', description: 'Items per page, 1 to 100', schema: pageQuery.shape.limit, default: DEFAULT_LIMIT },
  { name: 'offset', description: 'Items to skip, 0-based; used instead of page when present', schema: pageQuery.shape.offset },
];

const cardNumber = { card_number: 'The 16-digit card number' };

/** Conditions of SPEC.md's error table, for the document and the reference page. */
export const ERROR_CONDITIONS: Partial<Record<ErrorCode, string>> = {
  validation_error: 'Missing or invalid fields; `error` is an object keyed by field name',
  invalid_phone_number: 'The phone number is not in international format',
  invalid_card_number: 'The card_number path parameter is blank',
  invalid_request: 'The reference path parameter is blank',
  insufficient_balance: 'The source card (or business account) lacks funds',
  invalid_payout_request: 'More than one destination type, or incomplete bank fields',
  invalid_charge_payer: 'charge_payer is not allowed for the payout type',
  amount_below_fee: 'The fee payer takes the fee from the amount and amount <= service_fee',
  same_card: 'Source equals destination',
  currency_mismatch: 'Card-to-card cards differ in currency',
  card_disabled: 'The card is not active',
  destination_card_disabled: 'The destination card is not active',
  invalid_bank_slug: 'A ledger top-up with a bank_slug other than link',
  payout_request_failed:
    'Unknown bank slug, a bank that does not take the currency, a bank account_number that is not the bank’s digits, or an unknown (or your own) merchant_id',
  unauthorized: 'Missing or invalid key',
  forbidden: 'The key is inactive, not set up for gift cards, or lacks the scope this operation needs',
  cannot_enable: 'The card was disabled by the provider; only the provider can enable it',
  hold_not_found: 'No hold with this reference belongs to your business and mode',
  hold_captured: 'The hold was already captured (with another amount, for a capture)',
  hold_voided: 'The hold was already voided',
  hold_expired: 'The hold passed expires_at; its money is (or is being) released to the card',
  card_not_found: 'No such card, or not your business’s (or not this mode’s)',
  destination_card_not_found: 'No active card of this mode has the destination number',
  user_not_found: 'A new phone number without first_name',
  payment_not_found: 'Unknown link_reference, or outside your business',
  payout_not_found: 'Unknown reference, or outside your business',
  not_found: 'Unknown id, or a test helper called with a live key',
  card_exists: 'This customer already has a card in this currency with your business',
  duplicate_merchant_reference: 'merchant_reference was used before',
  already_disabled: 'The card is already disabled',
  idempotency_key_reused: 'The Idempotency-Key was used with another request',
  request_in_progress: 'A request with this Idempotency-Key is still running',
  payload_too_large: 'The body is larger than 1 MB',
  rate_limited: 'Too many requests with this API key; wait the Retry-After header’s seconds',
  internal: 'Something failed on our side; nothing was changed; quote request_id',
  failed_to_initiate_payout:
    'Live mode with no bank payout provider configured (nothing debited), or the rail refused the payout (its debit reversed, payout.failed sent); retry with a new Idempotency-Key',
  limit_exceeded:
    'A limit your business set would be passed: the largest single payout (max_payout), the payouts of one business day (daily_payout), or the most a card may hold (max_card_balance; payments and top-ups too, pending ones counted); `error` names the limit and its value. Nothing was moved',
  unavailable: 'The fee schedule was edited under each of three attempts; nothing was moved; send the request again',
  payment_not_refundable: 'The payment is not a successful one, or has been refunded in full',
  refund_request_failed:
    'Live mode with no payment provider configured (nothing was debited), or Chapa refused the refund at once (the debit was reversed in full and `payment.refund_failed` sent)',
  payment_request_failed:
    'No payment processor configured for the mode (nothing recorded), or the wallet refused the charge (the payment failed, payment.failed sent)',
};

/** Errors any operation of an API can answer, by method. */
export function commonErrors(api: Api, method: HttpMethod, isPublic = false): ErrorCode[] {
  if (isPublic) return [];
  const hasBody = method === 'post' || method === 'put' || method === 'patch';
  if (api === 'admin') return ['unauthorized', 'internal', ...(hasBody ? (['validation_error', 'payload_too_large'] as const) : [])];
  return [
    'unauthorized',
    'forbidden',
    'rate_limited',
    'internal',
    ...(hasBody ? (['validation_error', 'payload_too_large'] as const) : []),
    ...(method === 'post' ? (['idempotency_key_reused', 'request_in_progress'] as const) : []),
  ];
}

export const OPERATIONS: Operation[] = [
  {
    api: 'v1',
    method: 'post',
    path: '/card',
    operationId: 'createCard',
    tag: 'Cards',
    summary: 'Create a gift card',
    description: 'One card per customer, currency and business. first_name is required when the phone number is new to the service.',
    body: {
      schemas: { CreateCardRequest: createCardSchema },
      examples: { CreateCardRequest: { phone_number: '+251911234567', currency: 'ETB', first_name: 'Abebe', last_name: 'Kebede' } },
    },
    success: { status: 201, message: 'Gift card created successfully', data: r.giftCardSchema, examples: { card: ex.giftCardExample } },
    errors: ['validation_error', 'invalid_phone_number', 'user_not_found', 'card_exists'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/batch',
    operationId: 'createCardsBatch',
    tag: 'Cards',
    summary: 'Create up to 1,000 gift cards',
    description:
      'Each item of cards is the body of POST /card. The items are issued in order, as if sent one after another (a second card for the same phone and currency is Gift card already exists), in one transaction. The answer is 200 with one result per item in the same order: the card, or the error envelope the single call would have answered; one refused item never fails the others. A body whose cards is not an array of 1 to 1,000 items is refused whole. Idempotency-Key covers the whole batch. The batch counts as one request against the key’s rate limit.',
    body: {
      schemas: { CreateCardsBatchRequest: z.object({ cards: z.array(createCardSchema).min(1).max(MAX_CARDS_PER_BATCH) }) },
      examples: {
        CreateCardsBatchRequest: {
          cards: [
            { phone_number: '+251911234567', currency: 'ETB', first_name: 'Abebe', last_name: 'Kebede' },
            { phone_number: '+251911234567', currency: 'ETB' },
          ],
        },
      },
    },
    success: { status: 200, message: 'Gift card batch processed', data: r.cardBatchSchema, examples: { results: ex.cardBatchExample } },
    errors: ['validation_error'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/card',
    operationId: 'listCards',
    tag: 'Cards',
    summary: 'List gift cards',
    description: 'Newest first; cancelled cards are not listed.',
    query: [
      ...page,
      {
        name: 'phone_number',
        description: 'Filter by the holder’s national number, with or without its trunk 0 (911234567 or 0911234567)',
        schema: z.string(),
      },
    ],
    success: { status: 200, message: 'Gift cards retrieved successfully', data: r.cardPageSchema, examples: { page: ex.cardPageExample } },
    errors: ['validation_error'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/card/{card_number}',
    operationId: 'getCard',
    tag: 'Cards',
    summary: 'Get a gift card',
    pathParams: cardNumber,
    success: { status: 200, message: 'Gift card retrieved successfully', data: r.giftCardSchema, examples: { card: ex.giftCardExample } },
    errors: ['invalid_card_number', 'card_not_found'],
  },
  {
    api: 'v1',
    method: 'patch',
    path: '/card/{card_number}',
    operationId: 'setCardStatus',
    tag: 'Cards',
    summary: 'Enable or disable a gift card',
    description: 'A disabled card cannot be used for payments or payouts. A card the provider disabled can only be enabled by the provider.',
    pathParams: cardNumber,
    body: { schemas: { SetCardStatusRequest: cardStatusSchema }, examples: { SetCardStatusRequest: { status: 'disable' } } },
    success: {
      status: 200,
      message: ['Gift card disabled successfully', 'Gift card enabled successfully'],
      data: r.giftCardSchema,
      examples: { card: { ...ex.giftCardExample, status: 3, updated_at: '2025-06-01T10:00:00.000Z' } },
    },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found', 'cannot_enable', 'already_disabled'],
  },
  {
    api: 'v1',
    method: 'delete',
    path: '/card/{card_number}',
    operationId: 'cancelCard',
    tag: 'Cards',
    summary: 'Cancel a gift card',
    description: 'The card leaves lists and details for good; any balance moves to your business account of that mode and currency.',
    pathParams: cardNumber,
    success: { status: 200, message: 'Gift card cancelled successfully', data: null, examples: { cancelled: null } },
    errors: ['invalid_card_number', 'card_not_found'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/payouts',
    operationId: 'createPayout',
    tag: 'Payouts',
    summary: 'Initiate a payout',
    description:
      'Exactly one destination per request, chosen by the fields sent: merchant_id (B2B, final at once), destination_card_number (card-to-card, final at once) or bank_slug, account_number and account_name (bank, pending until the bank settles). A bank account_number is digits only, of the bank’s length (cbe 13, awash 14, dashen 13, boa 8), in test and live mode alike. In test mode an account_number ending in 0000 fails.',
    body: {
      schemas: {
        B2BPayoutRequest: payoutRequestSchemas.b2b,
        CardToCardPayoutRequest: payoutRequestSchemas.card_to_card,
        BankPayoutRequest: payoutRequestSchemas.bank,
      },
      examples: {
        B2BPayoutRequest: { card_number: '4921583047261138', merchant_id: 'mer_Q2w3E4r5T6y7U8i9', amount: 7500, charge_payer: 'business' },
        CardToCardPayoutRequest: { card_number: '4921583047261138', destination_card_number: '5104920038817265', amount: 5000, charge_payer: 'sender' },
        BankPayoutRequest: { card_number: '4921583047261138', amount: 20000, bank_slug: 'cbe', account_number: '1000123456789', account_name: 'Abebe Kebede' },
      },
    },
    success: {
      status: 200,
      message: 'Payout initiated successfully',
      data: r.payoutCreatedSchema,
      examples: { b2b: ex.b2bCreatedExample, card_to_card: ex.cardToCardCreatedExample, bank: ex.bankCreatedExample },
    },
    errors: [
      'validation_error',
      'invalid_payout_request',
      'invalid_charge_payer',
      'amount_below_fee',
      'same_card',
      'currency_mismatch',
      'card_disabled',
      'destination_card_disabled',
      'insufficient_balance',
      'payout_request_failed',
      'card_not_found',
      'destination_card_not_found',
      'failed_to_initiate_payout',
      'limit_exceeded',
      'unavailable',
    ],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/payouts/batch',
    operationId: 'createPayoutsBatch',
    tag: 'Payouts',
    summary: 'Initiate up to 100 payouts',
    description:
      'Each item of payouts is the body of POST /card/payouts. The items are made in order exactly as if sent one after another: each sees the balances, limits and fees left by the ones before it, and each has its own payout, events and webhooks. They commit 25 at a time, in order; bank payouts reach their bank after their commit. The answer is 200 with one result per item in the same order: what the single call answers, or its error envelope (Insufficient balance, Gift card disabled, Limit exceeded, ...); one refused item never fails the others. A body whose payouts is not an array of 1 to 100 items is refused whole. Idempotency-Key covers the whole batch: should the first run die part way, a retry with the same key and body, once the first run has been quiet for a minute, answers every item, those already committed as they were made or refused and the rest made then, each once. The batch counts as one request against the key’s rate limit.',
    body: {
      schemas: {
        CreatePayoutsBatchRequest: z.object({
          payouts: z
            .array(z.union([payoutRequestSchemas.b2b, payoutRequestSchemas.card_to_card, payoutRequestSchemas.bank]))
            .min(1)
            .max(MAX_PAYOUTS_PER_BATCH),
        }),
      },
      examples: {
        CreatePayoutsBatchRequest: {
          payouts: [
            { card_number: '4921583047261138', destination_card_number: '5104920038817265', amount: 5000 },
            { card_number: '4921583047261138', destination_card_number: '5104920038817265', amount: 900000000 },
          ],
        },
      },
    },
    success: { status: 200, message: 'Payout batch processed', data: r.payoutBatchSchema, examples: { results: ex.payoutBatchExample } },
    errors: ['validation_error'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/card/payouts',
    operationId: 'listPayouts',
    tag: 'Payouts',
    summary: 'List payouts',
    description: 'Newest first, ledger top-ups included.',
    query: page,
    success: { status: 200, message: 'Payouts retrieved successfully', data: r.payoutPageSchema, examples: { page: ex.payoutPageExample } },
    errors: ['validation_error'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/card/payout/{reference}/status',
    operationId: 'getPayoutStatus',
    tag: 'Payouts',
    summary: 'Get a payout’s status',
    pathParams: { reference: 'The initiator_reference or provider_reference of the payout' },
    success: { status: 200, message: 'Payout status retrieved successfully', data: r.payoutStatusSchema, examples: { status: ex.payoutStatusExample } },
    errors: ['invalid_request', 'payout_not_found'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/transfers',
    operationId: 'createTransfer',
    tag: 'Transfers',
    summary: 'Top up a card from your business account',
    description:
      'The ledger top-up: bank_slug must be link and account_number is the card number. Your business account of that mode and currency is debited now; the card is credited when the transfer settles (a payout.success event).',
    body: {
      schemas: { TransferRequest: transferSchema },
      examples: { TransferRequest: { amount: 20000, bank_slug: 'link', account_number: '4921583047261138', account_name: 'June top-up' } },
    },
    success: { status: 200, message: 'Transfer initiated successfully', data: r.transferCreatedSchema, examples: { transfer: ex.transferCreatedExample } },
    errors: ['validation_error', 'invalid_bank_slug', 'card_not_found', 'card_disabled', 'insufficient_balance', 'limit_exceeded'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/banks',
    operationId: 'listBanks',
    tag: 'Banks',
    summary: 'List banks and wallets',
    description: 'The slugs bank payouts (bank_slug) and direct charges (payment_method, wallets only) accept.',
    success: { status: 200, message: 'Banks retrieved successfully', data: z.array(r.bankSchema), examples: { banks: ex.banksExample } },
    errors: [],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/payments',
    operationId: 'createPayment',
    tag: 'Payments',
    summary: 'Start a top-up payment',
    description:
      'hosted answers a checkout_url to send the customer to; direct-charge pushes a charge to the customer’s wallet (phone_number and payment_method required). The card is credited amount; the customer pays amount + service_fee. In test mode a direct-charge phone_number ending in 0000 fails.',
    body: {
      schemas: { CreatePaymentRequest: createPaymentSchema },
      examples: {
        CreatePaymentRequest: { type: 'hosted', amount: 10000, card_number: '4921583047261138', merchant_reference: 'order-1042' },
      },
    },
    success: { status: 201, message: 'Payment initiated successfully', data: r.paymentCreatedSchema, examples: { hosted: ex.paymentCreatedExample } },
    errors: [
      'validation_error',
      'invalid_phone_number',
      'card_not_found',
      'card_disabled',
      'duplicate_merchant_reference',
      'payment_request_failed',
      'limit_exceeded',
    ],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/card/payments',
    operationId: 'listPayments',
    tag: 'Payments',
    summary: 'List payments',
    description: 'Newest first.',
    query: page,
    success: { status: 200, message: 'Payments retrieved successfully', data: r.paymentPageSchema, examples: { page: ex.paymentPageExample } },
    errors: ['validation_error'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/card/payment/{link_reference}/status',
    operationId: 'getPaymentStatus',
    tag: 'Payments',
    summary: 'Get a payment’s status',
    pathParams: { link_reference: 'The link_reference answered when the payment was started' },
    success: { status: 200, message: 'Payment status retrieved successfully', data: r.paymentRecordSchema, examples: { payment: ex.paymentRecordExample } },
    errors: ['payment_not_found'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/payment/{link_reference}/authorize',
    operationId: 'authorizePayment',
    tag: 'Payments',
    summary: 'Authorize a live direct charge with the customer’s one-time code',
    description:
      'For a live direct charge whose next_action.type is otp. The code goes to the wallet through Chapa; the payment is credited only once Chapa’s verify confirms it, and the answer is the payment as it then stands.',
    pathParams: { link_reference: 'The link_reference answered when the payment was started' },
    body: { schemas: { AuthorizePaymentRequest: authorizePaymentSchema }, examples: { AuthorizePaymentRequest: { otp: '12345' } } },
    success: { status: 200, message: 'Payment authorization sent', data: r.paymentRecordSchema, examples: { payment: ex.paymentRecordExample } },
    errors: ['validation_error', 'invalid_request', 'payment_not_found', 'payment_request_failed'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/payments/{reference}/refund',
    operationId: 'refundPayment',
    tag: 'Payments',
    summary: 'Refund a paid top-up, in full or in part',
    description:
      'Beyond SPEC.md. Refunds a successful hosted or wallet payment, as many times as something is left, up to its amount (the service fee the payer paid is not refunded). The card is debited at once and must hold the amount (a card cancelled since: the business account, where its balance went); the payer is repaid through the rail that took the payment: in test mode the sandbox at once (status succeeded), in live mode Chapa (status pending until Chapa takes it; if Chapa refuses, the debit goes back and payment.refund_failed is sent). Without amount, what is left is refunded. A payment.refunded event goes out with the debit. Idempotency-Key is honoured.',
    pathParams: { reference: 'The link_reference of the payment' },
    body: {
      schemas: { RefundPaymentRequest: refundRequestSchema },
      examples: { RefundPaymentRequest: { amount: 2500, reason: 'Order 1005 returned' } },
    },
    success: { status: 200, message: 'Refund initiated successfully', data: r.refundSchema, examples: { refund: ex.refundExample } },
    errors: ['validation_error', 'payment_not_found', 'payment_not_refundable', 'insufficient_balance', 'refund_request_failed'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/{card_number}/redemptions',
    operationId: 'redeemCard',
    tag: 'Cards',
    summary: 'Redeem a card: spend its money at your business',
    description:
      'Beyond SPEC.md. For a till or a checkout that takes gift cards: moves amount from the card to your business account at once, in one transaction. The card must be active and hold the amount (held money is not available); concurrent redemptions queue and never take it below zero. The redemption fee of your fee schedule (applies_to redemption; none by default) is paid by the business out of what it receives. Not a payout: the payout limits do not apply. A card.redeemed event goes out with the movement. Needs the payments scope. Idempotency-Key is honoured.',
    pathParams: { card_number: 'The 16-digit card number' },
    body: {
      schemas: { RedeemCardRequest: redemptionRequestSchema },
      examples: { RedeemCardRequest: { amount: 2550, merchant_reference: 'till-7 receipt 0042' } },
    },
    success: { status: 200, message: 'Gift card redeemed successfully', data: r.redemptionSchema, examples: { redemption: ex.redemptionExample } },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found', 'card_disabled', 'insufficient_balance', 'amount_below_fee'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/{card_number}/holds',
    operationId: 'placeHold',
    tag: 'Holds',
    summary: 'Hold money on a card for a till',
    description:
      'Beyond SPEC.md. Sets amount of an active card aside at once: available_amount drops and held_amount rises, so no payout, redemption or other hold can spend it (the sum of holds never passes the balance). The hold ends by capture, void, or expiry: expires_in_seconds defaults to 7 days, at most 30 days; the service releases an expired hold to the card within a minute of expires_at, and a capture after it is refused. A disabled or cancelled card takes no new hold. hold.created goes out with it. Needs the payments scope. Idempotency-Key is honoured.',
    pathParams: cardNumber,
    body: {
      schemas: { PlaceHoldRequest: holdRequestSchema },
      examples: { PlaceHoldRequest: { amount: 5000, expires_in_seconds: 3600, merchant_reference: 'pump 4' } },
    },
    success: { status: 201, message: 'Hold placed successfully', data: r.holdSchema, examples: { hold: ex.holdExample } },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found', 'card_disabled', 'insufficient_balance'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/card/{card_number}/holds',
    operationId: 'listCardHolds',
    tag: 'Holds',
    summary: 'List a card’s holds',
    description: 'Beyond SPEC.md. Every till hold of the card in every state, newest first.',
    pathParams: cardNumber,
    query: page,
    success: { status: 200, message: 'Holds retrieved successfully', data: r.holdPageSchema, examples: { page: ex.holdPageExample } },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/card/holds/{hold_reference}',
    operationId: 'getHold',
    tag: 'Holds',
    summary: 'Get a hold',
    pathParams: { hold_reference: 'The hold_reference of POST /card/{card_number}/holds' },
    success: { status: 200, message: 'Hold retrieved successfully', data: r.holdSchema, examples: { hold: ex.holdExample } },
    errors: ['invalid_request', 'hold_not_found'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/holds/{hold_reference}/capture',
    operationId: 'captureHold',
    tag: 'Holds',
    summary: 'Capture a hold: redeem it',
    description:
      'Beyond SPEC.md. Spends amount of the hold at your business as a redemption (the whole hold when amount is left out; at most what is held) and gives the rest back to the card, in one transaction; the redemption fee of your fee schedule is paid out of it. Capture, void and expiry race to exactly one winner: the same capture repeated answers the captured hold again; after a void, an expiry or another capture it is 409. A hold of a disabled card can still be captured; a cancelled card’s cannot (void it: the money goes to your business account). hold.captured goes out with it. Needs the payments scope.',
    pathParams: { hold_reference: 'The hold_reference of POST /card/{card_number}/holds' },
    body: { schemas: { CaptureHoldRequest: captureRequestSchema }, examples: { CaptureHoldRequest: { amount: 3750 } } },
    success: { status: 200, message: 'Hold captured successfully', data: r.holdSchema, examples: { captured: ex.capturedHoldExample } },
    errors: ['validation_error', 'invalid_request', 'hold_not_found', 'card_not_found', 'amount_below_fee', 'hold_captured', 'hold_voided', 'hold_expired'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/card/holds/{hold_reference}/void',
    operationId: 'voidHold',
    tag: 'Holds',
    summary: 'Void a hold: release it to the card',
    description:
      'Beyond SPEC.md. Gives the whole hold back to the card (to your business account when the card was cancelled meanwhile). The same void repeated answers the voided hold again; after a capture or an expiry it is 409. hold.voided goes out with it. Needs the payments scope.',
    pathParams: { hold_reference: 'The hold_reference of POST /card/{card_number}/holds' },
    success: { status: 200, message: 'Hold voided successfully', data: r.holdSchema, examples: { voided: ex.voidedHoldExample } },
    errors: ['invalid_request', 'hold_not_found', 'hold_captured', 'hold_expired'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/events',
    operationId: 'listEvents',
    tag: 'Events',
    summary: 'List webhook events',
    description:
      'Every event of your business and mode, newest first, with the state of its delivery to your URL. A receiver that was down catches up here (undelivered=true) instead of waiting for retries.',
    query: [
      ...page,
      { name: 'type', description: 'Only events of this kind', schema: filtersSchema.shape.type },
      { name: 'undelivered', description: 'true: only events not yet delivered to your URL', schema: filtersSchema.shape.undelivered },
    ],
    success: {
      status: 200,
      message: 'Events retrieved successfully',
      data: r.eventPageSchema,
      examples: { page: { items: [ex.eventItemExample], total: 1, page: 1, limit: 15, pages: 1 } },
    },
    errors: ['validation_error'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/test-helpers/payouts/{reference}/settle',
    operationId: 'settlePayout',
    tag: 'Test helpers',
    summary: 'Settle a pending bank payout or top-up (test keys)',
    description: 'Acts as the bank’s status update. A payout that already settled is answered unchanged. Live keys get 404.',
    pathParams: { reference: 'The provider_reference of the bank payout or transfer' },
    body: { schemas: { SettlePayoutRequest: settleSchema }, examples: { SettlePayoutRequest: { status: 'success' } } },
    success: { status: 200, message: 'Payout status updated', data: r.payoutStatusSchema, examples: { status: ex.payoutStatusExample } },
    errors: ['not_found', 'validation_error', 'invalid_request', 'payout_not_found'],
  },
  {
    api: 'v1',
    method: 'post',
    path: '/test-helpers/payments/{link_reference}/complete',
    operationId: 'completePayment',
    tag: 'Test helpers',
    summary: 'Complete a pending payment (test keys)',
    description: 'Acts as the processor. A payment that already finished is answered unchanged. Live keys get 404.',
    pathParams: { link_reference: 'The link_reference of the payment' },
    body: { schemas: { CompletePaymentRequest: completeTestPaymentSchema }, examples: { CompletePaymentRequest: { status: 'success' } } },
    success: { status: 200, message: 'Payment completed', data: r.paymentRecordSchema, examples: { payment: ex.paymentRecordExample } },
    errors: ['not_found', 'validation_error', 'payment_not_found'],
  },
  {
    api: 'v1',
    method: 'get',
    path: '/openapi.json',
    operationId: 'getOpenApiDocument',
    tag: 'Documentation',
    summary: 'This OpenAPI document',
    description: 'Served without authentication.',
    success: { status: 200, message: '', data: null, examples: {} },
    errors: [],
    public: true,
  },

  /* The provider back office, {APP_URL}/api/admin. */
  {
    api: 'admin',
    method: 'get',
    path: '/businesses',
    operationId: 'listBusinesses',
    tag: 'Back office',
    summary: 'Find businesses',
    description: 'Newest first, so an operator can find a business’s id: search matches a merchant id exactly or any part of the name, case ignored.',
    query: [{ name: 'search', description: 'A merchant id, or part of a name (at most 200 characters)', schema: z.string().max(200) }, ...page],
    success: { status: 200, message: 'Businesses retrieved successfully', data: r.businessPageSchema, examples: {} },
    errors: ['validation_error'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/businesses',
    operationId: 'createBusiness',
    tag: 'Back office',
    summary: 'Create a business',
    description: 'Answers its test and live API keys, shown only this once; creates the owner’s dashboard account when asked.',
    body: { schemas: { CreateBusinessRequest: createBusinessSchema }, examples: { CreateBusinessRequest: { name: 'Kaldi Coffee' } } },
    success: {
      status: 201,
      message: 'Business created successfully',
      data: r.businessCreatedSchema,
      examples: { business: { id: 42, merchant_id: 'mer_Q2w3E4r5T6y7U8i9', name: 'Kaldi Coffee', api_keys: { test: 'sk_test_…', live: 'sk_live_…' } } },
    },
    errors: ['validation_error'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/businesses/{id}/api-keys',
    operationId: 'issueApiKey',
    tag: 'Back office',
    summary: 'Issue another API key',
    description:
      'Inactive or not-enabled keys answer 403 Forbidden on every endpoint. `scopes` restricts the key to some of read (every GET), cards (create, enable or disable, cancel), payments (start payments, refunds, redemptions and holds) and payouts (payouts and ledger top-ups); every scope when left out. A call outside the key’s scopes answers 403 Forbidden naming the missing scope, before anything else is done.',
    pathParams: { id: 'The business id' },
    body: {
      schemas: { IssueApiKeyRequest: issueKeySchema },
      examples: { IssueApiKeyRequest: { mode: 'test', name: 'Shop backend', active: true, gift_cards_enabled: true, scopes: ['read', 'payments'] } },
    },
    success: {
      status: 201,
      message: 'API key issued successfully',
      data: r.apiKeyIssuedSchema,
      examples: { key: { key: 'sk_test_…', name: 'Shop backend', mode: 'test', active: true, gift_cards_enabled: true, scopes: ['read', 'payments'] } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/businesses/{id}/users',
    operationId: 'createUser',
    tag: 'Back office',
    summary: 'Create a dashboard account',
    pathParams: { id: 'The business id' },
    body: {
      schemas: { CreateUserRequest: newUserSchema },
      examples: { CreateUserRequest: { email: 'finance@kaldi.example', password: 'a-long-password', role: 'finance' } },
    },
    success: {
      status: 201,
      message: 'User created successfully',
      data: r.userCreatedSchema,
      examples: { user: { id: 7, email: 'finance@kaldi.example', role: 'finance', business_id: 42 } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'put',
    path: '/businesses/{id}/fees',
    operationId: 'setFeeSchedule',
    tag: 'Back office',
    summary: 'Replace a mode’s fee schedule',
    description: 'fee = round_half_up(amount * percent / 100) + fixed, clamped to min and max when set.',
    pathParams: { id: 'The business id' },
    body: {
      schemas: { FeeScheduleRequest: feeScheduleSchema },
      examples: { FeeScheduleRequest: { mode: 'test', rules: [{ applies_to: 'payment', percent: '1.5', fixed: 10 }] } },
    },
    success: {
      status: 200,
      message: 'Fee schedule updated successfully',
      data: r.feeScheduleResultSchema,
      examples: { fees: { mode: 'test', rules: [{ applies_to: 'payment', percent: '1.5', fixed: 10 }] } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'put',
    path: '/businesses/{id}/webhook',
    operationId: 'registerWebhook',
    tag: 'Back office',
    summary: 'Register a mode’s webhook URL',
    description: 'Live URLs must be https and resolve to public addresses. The secret is generated when not given.',
    pathParams: { id: 'The business id' },
    body: {
      schemas: { RegisterWebhookRequest: registerWebhookSchema },
      examples: { RegisterWebhookRequest: { mode: 'live', url: 'https://shop.example/webhooks/giftcards' } },
    },
    success: {
      status: 200,
      message: 'Webhook registered successfully',
      data: r.webhookEndpointSchema,
      examples: { endpoint: { mode: 'live', url: 'https://shop.example/webhooks/giftcards', secret: 'whsec_…' } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'put',
    path: '/businesses/{id}/locale',
    operationId: 'setBusinessLocale',
    tag: 'Back office',
    summary: 'Set the customers’ language and calendar',
    description:
      'The language (am or en) the business’s hosted checkout speaks to its customers, and the calendar (ethiopic or gregorian) it shows them dates in. Display only: the API and CSV exports keep ISO 8601 dates and English names. Answers with the business’s settings.',
    pathParams: { id: 'The business id' },
    body: {
      schemas: { SetBusinessLocaleRequest: businessLocaleRequestSchema },
      examples: { SetBusinessLocaleRequest: { customer_language: 'am', calendar: 'ethiopic' } },
    },
    success: {
      status: 200,
      message: 'Business settings updated successfully',
      data: r.businessLocaleSchema,
      examples: { settings: { id: 42, time_zone: 'Africa/Addis_Ababa', country: 'ET', customer_language: 'am', calendar: 'ethiopic' } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'get',
    path: '/businesses/{id}/locale',
    operationId: 'getBusinessLocale',
    tag: 'Back office',
    summary: 'Read the customers’ language and calendar',
    description: 'The business’s settings: time zone, country, customer language and calendar.',
    pathParams: { id: 'The business id' },
    success: {
      status: 200,
      message: 'Business settings retrieved successfully',
      data: r.businessLocaleSchema,
      examples: { settings: { id: 42, time_zone: 'Africa/Addis_Ababa', country: 'ET', customer_language: 'en', calendar: 'gregorian' } },
    },
    errors: ['not_found'],
  },
  {
    api: 'admin',
    method: 'put',
    path: '/businesses/{id}/limits',
    operationId: 'setLimits',
    tag: 'Back office',
    summary: 'Set a currency’s limits',
    description:
      'Replaces the business’s limits for one mode (live when not given) and currency, in minor units; null or left out is no limit. max_payout: the largest single payout from a card; daily_payout: the payouts from cards of one business day (the business’s time zone) in total; max_card_balance: the most a card may hold (payments and top-ups that would pass it are refused).',
    pathParams: { id: 'The business id' },
    body: {
      schemas: { SetLimitsRequest: limitsSchema },
      examples: { SetLimitsRequest: { mode: 'live', currency: 'ETB', max_payout: 100000, daily_payout: 500000, max_card_balance: null } },
    },
    success: {
      status: 200,
      message: 'Limits updated successfully',
      data: r.limitsSetSchema,
      examples: { limits: { mode: 'live', currency: 'ETB', max_payout: 100000, daily_payout: 500000, max_card_balance: null } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'get',
    path: '/businesses/{id}/limits',
    operationId: 'getLimits',
    tag: 'Back office',
    summary: 'Read a mode’s limits',
    description: 'Every currency’s limits in one mode, null where none is set.',
    pathParams: { id: 'The business id' },
    query: [{ name: 'mode', description: 'test or live', schema: modeSchema, default: 'live' }],
    success: {
      status: 200,
      message: 'Limits retrieved successfully',
      data: r.limitsSchema,
      examples: {
        limits: {
          mode: 'live',
          limits: [
            { currency: 'ETB', max_payout: 100000, daily_payout: 500000, max_card_balance: null },
            { currency: 'USD', max_payout: null, daily_payout: null, max_card_balance: null },
            { currency: 'DJF', max_payout: null, daily_payout: null, max_card_balance: null },
            { currency: 'UGX', max_payout: null, daily_payout: null, max_card_balance: null },
          ],
        },
      },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/businesses/{id}/balance',
    operationId: 'creditBusinessAccount',
    tag: 'Back office',
    summary: 'Credit a business account',
    description: 'Test funds, or a recorded live deposit.',
    pathParams: { id: 'The business id' },
    body: { schemas: { DepositRequest: depositSchema }, examples: { DepositRequest: { mode: 'test', currency: 'ETB', amount: 1000000 } } },
    success: {
      status: 200,
      message: 'Business account credited successfully',
      data: r.depositResultSchema,
      examples: { deposit: { mode: 'test', currency: 'ETB', amount: 1000000, balance: 1000000 } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'get',
    path: '/businesses/{id}/webhook/deliveries',
    operationId: 'listDeliveries',
    tag: 'Back office',
    summary: 'The webhook delivery log',
    description: 'Each delivery, newest first, with every attempt.',
    pathParams: { id: 'The business id' },
    query: [
      { name: 'mode', description: 'test or live', schema: modeSchema, default: 'test' },
      { name: 'event_id', description: 'One event’s deliveries only (its webhook-id)', schema: z.string() },
      ...page,
    ],
    success: { status: 200, message: 'Webhook deliveries retrieved successfully', data: r.deliveryPageSchema, examples: {} },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/businesses/{id}/webhook/replay',
    operationId: 'replayWebhooks',
    tag: 'Back office',
    summary: 'Replay webhook deliveries',
    description: '{mode, event_id} sends one event again; {mode, from, to} sends again every delivery that failed for good among the events of that period.',
    pathParams: { id: 'The business id' },
    body: {
      schemas: { ReplayEventRequest: replayOneSchema, ReplayFailedRequest: replayFailedSchema },
      examples: {
        ReplayEventRequest: { mode: 'test', event_id: 'msg_3Fh8Kd0Lq2Zx9Vb7Nm1cR4tY' },
        ReplayFailedRequest: { mode: 'test', from: '2025-06-01T00:00:00Z', to: '2025-06-02T00:00:00Z' },
      },
    },
    success: {
      status: 200,
      message: 'Webhook replay scheduled',
      data: r.replayResultSchema,
      examples: { replay: { mode: 'test', event_id: 'msg_3Fh8Kd0Lq2Zx9Vb7Nm1cR4tY', deliveries: 2 } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/businesses/{id}/webhook/rotate',
    operationId: 'rotateWebhookSecret',
    tag: 'Back office',
    summary: 'Rotate a webhook secret',
    description: 'The old secret keeps signing beside the new one for overlap_hours (default 24).',
    pathParams: { id: 'The business id' },
    body: { schemas: { RotateSecretRequest: rotateSecretSchema }, examples: { RotateSecretRequest: { mode: 'live', overlap_hours: 24 } } },
    success: {
      status: 200,
      message: 'Webhook secret rotated successfully',
      data: r.webhookRotatedSchema,
      examples: {
        rotated: { mode: 'live', url: 'https://shop.example/webhooks/giftcards', secret: 'whsec_…', previous_secret_expires_at: '2025-06-02T09:30:00.000Z' },
      },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/cards/{card_number}/disable',
    operationId: 'disableCardAsProvider',
    tag: 'Back office',
    summary: 'Disable a card as the provider',
    description: 'The business then gets 403 Cannot enable.',
    pathParams: cardNumber,
    success: { status: 200, message: 'Gift card disabled by the provider', data: r.giftCardSchema, examples: { card: { ...ex.giftCardExample, status: 3 } } },
    errors: ['card_not_found'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/cards/{card_number}/enable',
    operationId: 'enableCardAsProvider',
    tag: 'Back office',
    summary: 'Lift the provider’s disable',
    pathParams: cardNumber,
    success: { status: 200, message: 'Gift card enabled by the provider', data: r.giftCardSchema, examples: { card: ex.giftCardExample } },
    errors: ['card_not_found'],
  },
  {
    api: 'admin',
    method: 'post',
    path: '/refunds/{reference}/settle',
    operationId: 'settleRefundByHand',
    tag: 'Back office',
    summary: 'End a live refund held for a person',
    description:
      'For a live refund the worker holds (a resend Chapa refused for a reason other than a used reference), once checked with Chapa: succeeded, or failed with the whole debit put back and payment.refund_failed sent. A refund that has ended is answered unchanged.',
    pathParams: { reference: 'The refund reference (rfd_…)' },
    body: {
      schemas: { SettleRefundRequest: settleRefundByHandSchema },
      examples: { SettleRefundRequest: { status: 'failed', reason: 'Chapa has no refund with this reference.' } },
    },
    success: { status: 200, message: 'Refund settled by the provider', data: r.refundSchema, examples: { refund: ex.refundExample } },
    errors: ['not_found', 'validation_error'],
  },
];
