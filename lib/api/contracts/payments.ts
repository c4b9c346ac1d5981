import { z } from 'zod';
import { authorizePaymentSchema } from '../../payments/authorize-live-payment';
import { completeTestPaymentSchema } from '../../payments/complete-test-payment';
import { createPaymentSchema } from '../../payments/create-payment';
import { refundRequestSchema } from '../../refunds/refund-request';
import { defineContracts, pageParams } from './contract';
import { currency, exampleTimes, lifecycle, minorUnits, mode, pageOf, reg, timestamp } from './schemas';

const paymentRecordSchema = reg(
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

const paymentPageSchema = reg('PaymentPage', pageOf(paymentRecordSchema));

const paymentCreatedSchema = reg(
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

export type PaymentRecord = z.output<typeof paymentRecordSchema>;
export type PaymentPage = z.output<typeof paymentPageSchema>;
export type PaymentCreated = z.output<typeof paymentCreatedSchema>;
export type Refund = z.output<typeof refundSchema>;

const { created, updated } = exampleTimes;

const paymentCreatedExample: PaymentCreated = {
  link_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  status: 'PENDING',
  amount: 10000,
  service_fee: 160,
  currency: 'ETB',
  card_number: '4921583047261138',
  merchant_reference: 'order-1042',
  checkout_url: 'http://localhost:3000/checkout/pay_Zx7cV2bN9mQ4wE1r',
};

const paymentRecordExample: PaymentRecord = {
  link_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  merchant_reference: 'order-1042',
  status: 'success',
  currency: 'ETB',
  amount: 10000,
  service_fee: 160,
  card_number: '4921583047261138',
  refunded_amount: 0,
  mode: 'test',
  created_at: created,
  updated_at: updated,
};

export const refundExample: Refund = {
  refund_reference: 'rfd_4Kq9sT2vB7xN1mC8pL3dF6hJ',
  link_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  status: 'succeeded',
  currency: 'ETB',
  amount: 2500,
  reason: 'Order 1005 returned',
  refunded_amount: 2500,
  refundable_amount: 7500,
  mode: 'test',
  created_at: updated,
  updated_at: updated,
  completed_at: updated,
};

const paymentPageExample: PaymentPage = { items: [paymentRecordExample], total: 1, page: 1, limit: 15, pages: 1 };

/** Top-ups of cards by hosted checkout or wallet charge, and their refunds. */
export const paymentContracts = defineContracts({
  createPayment: {
    method: 'post',
    path: '/card/payments',
    scope: 'payments',
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
    success: { status: 201, message: 'Payment initiated successfully', data: paymentCreatedSchema, examples: { hosted: paymentCreatedExample } },
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
  listPayments: {
    method: 'get',
    path: '/card/payments',
    scope: 'read',
    tag: 'Payments',
    summary: 'List payments',
    description: 'Newest first.',
    query: pageParams,
    success: { status: 200, message: 'Payments retrieved successfully', data: paymentPageSchema, examples: { page: paymentPageExample } },
    errors: ['validation_error'],
  },
  getPaymentStatus: {
    method: 'get',
    path: '/card/payment/{link_reference}/status',
    scope: 'read',
    tag: 'Payments',
    summary: 'Get a payment’s status',
    pathParams: { link_reference: 'The link_reference answered when the payment was started' },
    success: { status: 200, message: 'Payment status retrieved successfully', data: paymentRecordSchema, examples: { payment: paymentRecordExample } },
    errors: ['payment_not_found'],
  },
  authorizePayment: {
    method: 'post',
    path: '/card/payment/{link_reference}/authorize',
    scope: 'payments',
    tag: 'Payments',
    summary: 'Authorize a live direct charge with the customer’s one-time code',
    description:
      'For a live direct charge whose next_action.type is otp. The code goes to the wallet through Chapa; the payment is credited only once Chapa’s verify confirms it, and the answer is the payment as it then stands.',
    pathParams: { link_reference: 'The link_reference answered when the payment was started' },
    body: { schemas: { AuthorizePaymentRequest: authorizePaymentSchema }, examples: { AuthorizePaymentRequest: { otp: '12345' } } },
    success: { status: 200, message: 'Payment authorization sent', data: paymentRecordSchema, examples: { payment: paymentRecordExample } },
    errors: ['validation_error', 'invalid_request', 'payment_not_found', 'payment_request_failed'],
  },
  refundPayment: {
    method: 'post',
    path: '/card/payments/{reference}/refund',
    scope: 'payments',
    tag: 'Payments',
    summary: 'Refund a paid top-up, in full or in part',
    description:
      'Beyond SPEC.md. Refunds a successful hosted or wallet payment, as many times as something is left, up to its amount (the service fee the payer paid is not refunded). The card is debited at once and must hold the amount (a card cancelled since: the business account, where its balance went); the payer is repaid through the rail that took the payment: in test mode the sandbox at once (status succeeded), in live mode Chapa (status pending until Chapa takes it; if Chapa refuses, the debit goes back and payment.refund_failed is sent). Without amount, what is left is refunded. A payment.refunded event goes out with the debit. Idempotency-Key is honoured.',
    pathParams: { reference: 'The link_reference of the payment' },
    body: {
      schemas: { RefundPaymentRequest: refundRequestSchema },
      examples: { RefundPaymentRequest: { amount: 2500, reason: 'Order 1005 returned' } },
    },
    success: { status: 200, message: 'Refund initiated successfully', data: refundSchema, examples: { refund: refundExample } },
    errors: ['validation_error', 'payment_not_found', 'payment_not_refundable', 'insufficient_balance', 'refund_request_failed'],
  },
  completePayment: {
    method: 'post',
    path: '/test-helpers/payments/{link_reference}/complete',
    // The test helpers play the bank and the processor: they finish what the payouts and payments scopes start.
    scope: 'payments',
    tag: 'Test helpers',
    summary: 'Complete a pending payment (test keys)',
    description: 'Acts as the processor. A payment that already finished is answered unchanged. Live keys get 404.',
    pathParams: { link_reference: 'The link_reference of the payment' },
    body: { schemas: { CompletePaymentRequest: completeTestPaymentSchema }, examples: { CompletePaymentRequest: { status: 'success' } } },
    success: { status: 200, message: 'Payment completed', data: paymentRecordSchema, examples: { payment: paymentRecordExample } },
    errors: ['not_found', 'validation_error', 'payment_not_found'],
  },
});
