import { z } from 'zod';
import { createBusinessSchema, issueKeySchema } from '../admin/businesses';
import { listJobsSchema, retryJobSchema } from '../admin/jobs';
import { businessLocaleSchema as businessLocaleRequestSchema } from '../business/business-locale.validation';
import { cardNumberParam, pageParams, type Operation } from '../api/contracts/contract';
import { giftCardExample, giftCardSchema } from '../api/contracts/cards';
import { refundExample, refundSchema } from '../api/contracts/payments';
import { newUserSchema } from '../auth/users';
import { feeScheduleSchema } from '../fees/fee-schedule';
import { depositSchema } from '../ledger/deposit';
import { limitsSchema } from '../limits/business-limits';
import { settleRefundByHandSchema } from '../refunds/settle-refund-by-hand';
import { shopSettingsSchema } from '../shop/shop-settings';
import { currencySchema, modeSchema } from '../validation';
import { registerWebhookSchema } from '../webhooks/endpoints';
import { replayFailedSchema, replayOneSchema } from '../webhooks/replay';
import { rotateSecretSchema } from '../webhooks/rotate-secret';
import { reg } from '../api/contracts/schemas';
import * as r from './admin-schemas';

const shopSchema = reg(
  'Shop',
  z.strictObject({
    enabled: z.boolean(),
    mode: modeSchema,
    slug: z.string(),
    currency: currencySchema,
    preset_amounts: z.array(z.int()),
    min_amount: z.int(),
    max_amount: z.int(),
    headline: z.string().nullable(),
    color: z.string().nullable(),
  }),
  'A business’s public gift card shop; amounts in minor units.',
);

const shopExample = {
  enabled: true,
  mode: 'live' as const,
  slug: 'buna-cafe',
  currency: 'ETB' as const,
  preset_amounts: [25000, 50000, 100000],
  min_amount: 10000,
  max_amount: 500000,
  headline: 'Give someone a coffee on us',
  color: '#7c2d12',
};

/** The provider back office, {APP_URL}/api/admin: documented here by hand (the API of /api/v1 is declared by its contracts). */
export const ADMIN_OPERATIONS: Operation[] = [
  {
    method: 'get',
    path: '/businesses',
    operationId: 'listBusinesses',
    tag: 'Back office',
    summary: 'Find businesses',
    description: 'Newest first, so an operator can find a business’s id: search matches a merchant id exactly or any part of the name, case ignored.',
    query: [{ name: 'search', description: 'A merchant id, or part of a name (at most 200 characters)', schema: z.string().max(200) }, ...pageParams],
    success: { status: 200, message: 'Businesses retrieved successfully', data: r.businessPageSchema, examples: {} },
    errors: ['validation_error'],
  },
  {
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
      examples: { user: { id: 7, email: 'finance@kaldi.example', role: 'finance', business_id: 42, location_id: null } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
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
    method: 'put',
    path: '/businesses/{id}/shop',
    operationId: 'setShop',
    tag: 'Back office',
    summary: 'Set up the business’s gift card shop',
    description:
      'The public shop at /shop/{slug} where anyone buys a card for someone (amounts in minor units). A test-mode shop says so on every page and pays through the sandbox; a live one through Chapa. A slug another shop has is 409. Answers with the shop.',
    pathParams: { id: 'The business id' },
    body: { schemas: { SetShopRequest: shopSettingsSchema }, examples: { SetShopRequest: shopExample } },
    success: { status: 200, message: 'Shop updated successfully', data: shopSchema, examples: { shop: shopExample } },
    errors: ['not_found', 'validation_error', 'already_exists'],
  },
  {
    method: 'get',
    path: '/businesses/{id}/shop',
    operationId: 'getShop',
    tag: 'Back office',
    summary: 'Read the business’s gift card shop',
    pathParams: { id: 'The business id' },
    success: { status: 200, message: 'Shop retrieved successfully', data: shopSchema, examples: { shop: shopExample } },
    errors: ['not_found'],
  },
  {
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
    method: 'put',
    path: '/businesses/{id}/limits',
    operationId: 'setLimits',
    tag: 'Back office',
    summary: 'Set a currency’s limits',
    description:
      'Replaces the business’s limits for one mode (live when not given) and currency, in minor units; null or left out is no limit. max_payout: the largest single payout from a card; daily_payout: the payouts from cards of one business day (the business’s time zone) in total; max_card_balance: the most a card may hold (payments and top-ups that would pass it are refused). spend_code_over is no refusal: a redemption or capture of more than it answers 202 and waits for the 6-digit code sent by SMS to the card’s phone (POST /card/confirmations/{confirmation_reference}).',
    pathParams: { id: 'The business id' },
    body: {
      schemas: { SetLimitsRequest: limitsSchema },
      examples: { SetLimitsRequest: { mode: 'live', currency: 'ETB', max_payout: 100000, daily_payout: 500000, max_card_balance: null } },
    },
    success: {
      status: 200,
      message: 'Limits updated successfully',
      data: r.limitsSetSchema,
      examples: { limits: { mode: 'live', currency: 'ETB', max_payout: 100000, daily_payout: 500000, max_card_balance: null, spend_code_over: 200000 } },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
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
            { currency: 'ETB', max_payout: 100000, daily_payout: 500000, max_card_balance: null, spend_code_over: 200000 },
            { currency: 'USD', max_payout: null, daily_payout: null, max_card_balance: null, spend_code_over: null },
            { currency: 'DJF', max_payout: null, daily_payout: null, max_card_balance: null, spend_code_over: null },
            { currency: 'UGX', max_payout: null, daily_payout: null, max_card_balance: null, spend_code_over: null },
          ],
        },
      },
    },
    errors: ['not_found', 'validation_error'],
  },
  {
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
      ...pageParams,
    ],
    success: { status: 200, message: 'Webhook deliveries retrieved successfully', data: r.deliveryPageSchema, examples: {} },
    errors: ['not_found', 'validation_error'],
  },
  {
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
    method: 'post',
    path: '/cards/{card_number}/disable',
    operationId: 'disableCardAsProvider',
    tag: 'Back office',
    summary: 'Disable a card as the provider',
    description: 'The business then gets 403 Cannot enable.',
    pathParams: cardNumberParam,
    success: { status: 200, message: 'Gift card disabled by the provider', data: giftCardSchema, examples: { card: { ...giftCardExample, status: 3 } } },
    errors: ['card_not_found'],
  },
  {
    method: 'post',
    path: '/cards/{card_number}/enable',
    operationId: 'enableCardAsProvider',
    tag: 'Back office',
    summary: 'Lift the provider’s disable',
    pathParams: cardNumberParam,
    success: { status: 200, message: 'Gift card enabled by the provider', data: giftCardSchema, examples: { card: giftCardExample } },
    errors: ['card_not_found'],
  },
  {
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
    success: { status: 200, message: 'Refund settled by the provider', data: refundSchema, examples: { refund: refundExample } },
    errors: ['not_found', 'validation_error'],
  },
  {
    method: 'get',
    path: '/jobs',
    operationId: 'listJobs',
    tag: 'Back office',
    summary: 'List the job queue',
    description:
      'Work after a commit (provider requests, refunds) as the one job queue holds it, every business’s, last changed first. By default the dead jobs: those that ran out of tries (or that a handler gave up on) and wait for a person.',
    query: [
      { name: 'state', description: 'pending, done or dead', schema: listJobsSchema.shape.state, default: 'dead' },
      { name: 'kind', description: 'One kind of job only', schema: listJobsSchema.shape.kind },
      { name: 'business_id', description: 'One business’s jobs only', schema: listJobsSchema.shape.business_id },
      { name: 'mode', description: 'test or live', schema: listJobsSchema.shape.mode },
      ...pageParams,
    ],
    success: { status: 200, message: 'Jobs retrieved successfully', data: r.jobPageSchema, examples: {} },
    errors: ['validation_error'],
  },
  {
    method: 'post',
    path: '/jobs/{id}/retry',
    operationId: 'retryJob',
    tag: 'Back office',
    summary: 'Retry a dead job',
    description:
      'Puts a dead job back in the queue, due now, its tries counted from zero (max_attempts raised or lowered when given); audited as job.retried. Its handler runs it as any other try: a provider request already taken by the provider is verified, not sent again. A job that is not dead answers 409 Already decided.',
    pathParams: { id: 'The job id' },
    body: { schemas: { RetryJobRequest: retryJobSchema }, examples: { RetryJobRequest: { max_attempts: 20 } } },
    success: { status: 200, message: 'Job retry scheduled', data: r.jobSchema, examples: {} },
    errors: ['not_found', 'already_decided', 'validation_error'],
  },
];
