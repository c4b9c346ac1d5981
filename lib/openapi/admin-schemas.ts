import { z } from 'zod';
import { currency, minorUnits, mode, pageOf, reg, timestamp } from '../api/contracts/schemas';
import { API_KEY_SCOPES } from '../validation';

/* The answers of the provider back office, registered beside those of the API. */

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
  z.strictObject({
    id: z.int(),
    email: z.string(),
    role: z.enum(['owner', 'operator', 'finance', 'support', 'cashier']),
    business_id: z.int(),
    location_id: z.int().nullable(),
  }),
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
const currencyLimits = z.strictObject({
  currency,
  max_payout: limitValue,
  daily_payout: limitValue,
  max_card_balance: limitValue,
  spend_code_over: limitValue.meta({ description: 'Redemptions and captures of more than this wait for the cardholder’s SMS code; null: never' }),
});
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

export const jobSchema = reg(
  'Job',
  z.strictObject({
    id: z.int(),
    kind: z.string(),
    subject: z.string(),
    business_id: z.int().nullable(),
    mode: mode.nullable(),
    state: z.enum(['pending', 'done', 'dead']),
    attempts: z.int().min(0),
    max_attempts: z.int().min(1),
    last_error: z.string().nullable(),
    run_at: timestamp,
    created_at: timestamp,
    updated_at: timestamp,
    finished_at: timestamp.nullable(),
  }),
);

export const jobPageSchema = reg('JobPage', pageOf(jobSchema));
