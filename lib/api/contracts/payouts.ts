import { z } from 'zod';
import { MAX_PAYOUTS_PER_BATCH } from '../../batches/batch-limits';
import { transferSchema } from '../../payouts/create-transfer';
import { schemas as payoutRequestSchemas } from '../../payouts/payout-request';
import { settleSchema } from '../../payouts/settle-payout-as-provider';
import { defineContracts, pageParams } from './contract';
import { batchItemErrorSchema, currency, exampleTimes, lifecycle, minorUnits, mode, pageOf, reg, timestamp } from './schemas';

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

const payoutPageSchema = reg('PayoutPage', pageOf(payoutListItemSchema));

const payoutStatusSchema = reg(
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

const payoutCreatedSchema = reg('PayoutCreated', z.union([b2bPayoutCreatedSchema, cardToCardPayoutCreatedSchema, bankPayoutCreatedSchema]));

const transferCreatedSchema = reg(
  'TransferCreated',
  z.strictObject({ provider_reference: z.string(), status: z.literal('PENDING'), created_at: timestamp, updated_at: timestamp }),
);

const bankSchema = reg('Bank', z.strictObject({ slug: z.string(), name: z.string(), type: z.enum(['bank', 'wallet']), currencies: z.array(currency) }));

const payoutBatchSchema = reg(
  'PayoutBatchResults',
  z.strictObject({
    results: z
      .array(z.union([payoutCreatedSchema, batchItemErrorSchema]))
      .meta({ description: 'One per item of payouts, in the same order: what POST /card/payouts answers, or that call’s error' }),
  }),
);

export type PayoutPage = z.output<typeof payoutPageSchema>;
export type PayoutStatus = z.output<typeof payoutStatusSchema>;
export type PayoutCreated = z.output<typeof payoutCreatedSchema>;
export type PayoutBatchResults = z.output<typeof payoutBatchSchema>;
export type B2BPayoutCreated = z.output<typeof b2bPayoutCreatedSchema>;
export type CardToCardPayoutCreated = z.output<typeof cardToCardPayoutCreatedSchema>;
export type BankPayoutCreated = z.output<typeof bankPayoutCreatedSchema>;
export type TransferCreated = z.output<typeof transferCreatedSchema>;
export type Bank = z.output<typeof bankSchema>;

const { created, updated } = exampleTimes;

const b2bCreatedExample: B2BPayoutCreated = { provider_reference: 'b2b_7Jq2xVb9LkP3sT8a', status: 'SUCCESS', created_at: created, updated_at: created };

const cardToCardCreatedExample: CardToCardPayoutCreated = {
  initiator_reference: 'c2c_Hn4v0QwE2rYd8KzM',
  source_card_number: '4921583047261138',
  destination_card_number: '5104920038817265',
  amount: 5000,
  service_fee: 50,
  charge_payer: 'sender',
  currency: 'ETB',
};

const bankCreatedExample: BankPayoutCreated = { provider_reference: 'bnk_Pq8sW2nX4cV7bR1e', status: 'PENDING' };

const transferCreatedExample: TransferCreated = {
  provider_reference: 'trf_Lm3kD9fG1hJ6aS2q',
  status: 'PENDING',
  created_at: created,
  updated_at: created,
};

const payoutPageExample: PayoutPage = {
  items: [
    {
      payout_type: 'card_to_card',
      status: 'success',
      currency: 'ETB',
      amount: 5000,
      service_fee: 50,
      initiator_reference: 'c2c_Hn4v0QwE2rYd8KzM',
      source_card_number: '4921583047261138',
      destination_card_number: '5104920038817265',
      mode: 'test',
      created_at: created,
      updated_at: created,
    },
  ],
  total: 1,
  page: 1,
  limit: 15,
  pages: 1,
};

const payoutStatusExample: PayoutStatus = {
  reference: 'bnk_Pq8sW2nX4cV7bR1e',
  provider_ref: 'bnk_Pq8sW2nX4cV7bR1e',
  amount: 20000,
  service_fee: 0,
  currency: 'ETB',
  status: 'success',
  created_at: created,
  completed_at: updated,
};

const banksExample: Bank[] = [
  { slug: 'cbe', name: 'Commercial Bank of Ethiopia', type: 'bank', currencies: ['ETB'] },
  { slug: 'telebirr', name: 'telebirr', type: 'wallet', currencies: ['ETB'] },
];

const payoutBatchExample: PayoutBatchResults = {
  results: [
    cardToCardCreatedExample,
    { status: 'error', message: 'Insufficient balance', error: 'The source card does not hold enough funds for this payout and its fee.' },
  ],
};

/** Money out of cards (B2B, card-to-card, bank), ledger top-ups, and the bank list they name. */
export const payoutContracts = defineContracts({
  createPayout: {
    method: 'post',
    path: '/card/payouts',
    scope: 'payouts',
    tag: 'Payouts',
    summary: 'Initiate a payout',
    description:
      'Exactly one destination per request, chosen by the fields sent: merchant_id (B2B, final at once), destination_card_number (card-to-card, final at once) or bank_slug, account_number and account_name (bank, pending until the bank settles). A bank account_number is digits only, of the bank’s length (cbe 13, awash 14, dashen 13, boa 8), a telebirr, mpesa or cbebirr number 10 digits (0911234567), in test and live mode alike; anything else is 400 Payout request failed, before any debit. In test mode an account_number ending in 0000 fails.',
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
      data: payoutCreatedSchema,
      examples: { b2b: b2bCreatedExample, card_to_card: cardToCardCreatedExample, bank: bankCreatedExample },
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
  createPayoutsBatch: {
    method: 'post',
    path: '/card/payouts/batch',
    scope: 'payouts',
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
    success: { status: 200, message: 'Payout batch processed', data: payoutBatchSchema, examples: { results: payoutBatchExample } },
    errors: ['validation_error'],
  },
  listPayouts: {
    method: 'get',
    path: '/card/payouts',
    scope: 'read',
    tag: 'Payouts',
    summary: 'List payouts',
    description: 'Newest first, ledger top-ups included.',
    query: pageParams,
    success: { status: 200, message: 'Payouts retrieved successfully', data: payoutPageSchema, examples: { page: payoutPageExample } },
    errors: ['validation_error'],
  },
  getPayoutStatus: {
    method: 'get',
    path: '/card/payout/{reference}/status',
    scope: 'read',
    tag: 'Payouts',
    summary: 'Get a payout’s status',
    pathParams: { reference: 'The initiator_reference or provider_reference of the payout' },
    success: { status: 200, message: 'Payout status retrieved successfully', data: payoutStatusSchema, examples: { status: payoutStatusExample } },
    errors: ['invalid_request', 'payout_not_found'],
  },
  createTransfer: {
    method: 'post',
    path: '/transfers',
    // A ledger top-up moves the business's own money out of its account, as a payout does.
    scope: 'payouts',
    tag: 'Transfers',
    summary: 'Top up a card from your business account',
    description:
      'The ledger top-up: bank_slug must be link and account_number is the card number. Your business account of that mode and currency is debited now; the card is credited when the transfer settles (a payout.success event).',
    body: {
      schemas: { TransferRequest: transferSchema },
      examples: { TransferRequest: { amount: 20000, bank_slug: 'link', account_number: '4921583047261138', account_name: 'June top-up' } },
    },
    success: { status: 200, message: 'Transfer initiated successfully', data: transferCreatedSchema, examples: { transfer: transferCreatedExample } },
    errors: ['validation_error', 'invalid_bank_slug', 'card_not_found', 'card_disabled', 'insufficient_balance', 'limit_exceeded'],
  },
  listBanks: {
    method: 'get',
    path: '/banks',
    scope: 'read',
    tag: 'Banks',
    summary: 'List banks and wallets',
    description: 'The slugs bank payouts (bank_slug) and direct charges (payment_method, wallets only) accept.',
    success: { status: 200, message: 'Banks retrieved successfully', data: z.array(bankSchema), examples: { banks: banksExample } },
    errors: [],
  },
  settlePayout: {
    method: 'post',
    path: '/test-helpers/payouts/{reference}/settle',
    // The test helpers play the bank and the processor: they finish what the payouts and payments scopes start.
    scope: 'payouts',
    tag: 'Test helpers',
    summary: 'Settle a pending bank payout or top-up (test keys)',
    description: 'Acts as the bank’s status update. A payout that already settled is answered unchanged. Live keys get 404.',
    pathParams: { reference: 'The provider_reference of the bank payout or transfer' },
    body: { schemas: { SettlePayoutRequest: settleSchema }, examples: { SettlePayoutRequest: { status: 'success' } } },
    success: { status: 200, message: 'Payout status updated', data: payoutStatusSchema, examples: { status: payoutStatusExample } },
    errors: ['not_found', 'validation_error', 'invalid_request', 'payout_not_found'],
  },
});
