import type { z } from 'zod';
import {
  expiryEventExample,
  expiryEventSchema,
  messageEventExample,
  messageEventSchema,
  holdEventExample,
  orderEventExample,
  orderEventSchema,
  holdEventSchema,
  paymentEventExample,
  paymentEventSchema,
  payoutEventExamples,
  payoutEventSchema,
  redemptionEventExample,
  redemptionEventSchema,
  refundEventExample,
  refundEventSchema,
} from '../api/contracts/events';
import { responseRegistry } from '../api/contracts/schemas';
import { DEFAULT_RETRY_SCHEDULE_MS } from '../webhooks/delivery-worker';

// biome-ignore lint/suspicious/noExplicitAny: the document is loose JSON built by hand; tests/openapi.test.ts validates its shape against the OpenAPI schema
export type Json = Record<string, any>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const signatureHeaders: Json[] = [
  {
    name: 'service-signature',
    in: 'header',
    required: true,
    description: 'Lowercase hex HMAC-SHA256 with the webhook secret as key over the secret itself (SPEC.md). During a rotation: the previous secret’s value.',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'x-service-signature',
    in: 'header',
    required: true,
    description: 'Lowercase hex HMAC-SHA256 with the whole secret string as key over the raw body. During a rotation: the previous secret’s value.',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'service-signature-next',
    in: 'header',
    required: false,
    description: 'Only during a secret rotation: service-signature computed with the new secret.',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'x-service-signature-next',
    in: 'header',
    required: false,
    description: 'Only during a secret rotation: x-service-signature computed with the new secret.',
    schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
  },
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: the event id, the same on every attempt (deduplicate on it).',
    schema: { type: 'string' },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Standard Webhooks: seconds since the epoch of this attempt; refuse old ones.',
    schema: { type: 'string', pattern: '^\\d+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Standard Webhooks: `v1,` + base64 HMAC-SHA256 over `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the base64-decoded bytes after `whsec_` (a secret without that prefix: its UTF-8 bytes). During a rotation it carries both signatures, space-separated, the new one first.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/=]+( v1,[A-Za-z0-9+/=]+)*$' },
  },
];

const retries = DEFAULT_RETRY_SCHEDULE_MS.map((ms) => (ms < 60_000 ? `${ms / 1000} s` : ms < 3_600_000 ? `${ms / 60_000} min` : `${ms / 3_600_000} h`)).join(
  ', ',
);

function webhookItem(event: string, schema: z.ZodType, example: unknown, summary: string): Json {
  const id = responseRegistry.get(schema)!.id;
  return {
    post: {
      operationId: `${event.replace('.', '_')}_webhook`,
      tags: ['Webhooks'],
      summary,
      description: `Sent to your registered URL when it happens. Answer 2xx within 15 s; anything else is retried after ${retries}. 410 Gone stops deliveries to the URL until it is registered again. Deliveries can repeat: deduplicate on webhook-id.`,
      parameters: signatureHeaders,
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { allOf: [ref(id)], properties: { event: { const: event } } }, example } },
      },
      responses: {
        '200': { description: 'Received (any 2xx)' },
        '410': { description: 'Gone: stop sending to this URL' },
      },
    },
  };
}

/** The document's `webhooks`: what the service sends to a business's URL, one item per event. */
export function webhookItems(): Json {
  return {
    'payment.success': webhookItem('payment.success', paymentEventSchema, paymentEventExample, 'A card was topped up'),
    'payment.failed': webhookItem(
      'payment.failed',
      paymentEventSchema,
      { ...paymentEventExample, event: 'payment.failed', status: 'failed' },
      'A payment failed',
    ),
    'payment.cancelled': webhookItem(
      'payment.cancelled',
      paymentEventSchema,
      { ...paymentEventExample, event: 'payment.cancelled', status: 'cancelled' },
      'A payment was cancelled',
    ),
    'payment.refunded': webhookItem(
      'payment.refunded',
      refundEventSchema,
      refundEventExample,
      'Beyond SPEC.md: a paid top-up was refunded in full or in part (the card was debited; the payer is being repaid)',
    ),
    'payment.refund_failed': webhookItem(
      'payment.refund_failed',
      refundEventSchema,
      {
        ...refundEventExample,
        event: 'payment.refund_failed',
        status: 'failed',
        refunded_amount: 0,
        failure_reason: 'The payment provider refused the refund.',
      },
      'Beyond SPEC.md: the provider refused a live refund; the debit went back to the card (or the business account)',
    ),
    'card.redeemed': webhookItem(
      'card.redeemed',
      redemptionEventSchema,
      redemptionEventExample,
      'Beyond SPEC.md: a card was spent at your business (a till or the dashboard); the money reached your business account less the fee',
    ),
    'hold.created': webhookItem(
      'hold.created',
      holdEventSchema,
      { ...holdEventExample, event: 'hold.created', status: 'held', captured_amount: undefined, fee: undefined, available_amount: 2500 },
      'Beyond SPEC.md: a till set money of a card aside (POST /card/{card_number}/holds)',
    ),
    'hold.captured': webhookItem(
      'hold.captured',
      holdEventSchema,
      holdEventExample,
      'Beyond SPEC.md: a hold was captured: captured_amount reached your business account less the fee, the rest went back to the card',
    ),
    'hold.voided': webhookItem(
      'hold.voided',
      holdEventSchema,
      { ...holdEventExample, event: 'hold.voided', status: 'voided', captured_amount: undefined, fee: undefined, available_amount: 7500 },
      'Beyond SPEC.md: a hold was voided; its money is back on the card',
    ),
    'hold.expired': webhookItem(
      'hold.expired',
      holdEventSchema,
      { ...holdEventExample, event: 'hold.expired', status: 'expired', captured_amount: undefined, fee: undefined, available_amount: 7500 },
      'Beyond SPEC.md: a hold reached expires_at uncaptured; the service released its money to the card',
    ),
    'card.expired': webhookItem(
      'card.expired',
      expiryEventSchema,
      expiryEventExample,
      "Beyond SPEC.md: a card reached its expiry date; its whole balance moved to the business's breakage account and the card is read-only",
    ),
    'message.sent': webhookItem(
      'message.sent',
      messageEventSchema,
      messageEventExample,
      'Beyond SPEC.md: the SMS provider or the mail server took a message to a cardholder (live mode)',
    ),
    'message.failed': webhookItem(
      'message.failed',
      messageEventSchema,
      { ...messageEventExample, event: 'message.failed', status: 'failed', provider_message_id: undefined, error: 'Invalid phone number' },
      'Beyond SPEC.md: a message to a cardholder was refused, reported undelivered, or given up after its tries',
    ),
    'order.paid': webhookItem(
      'order.paid',
      orderEventSchema,
      orderEventExample,
      "Beyond SPEC.md: a card bought on your shop (/shop/{slug}) was paid for; the recipient's card was found or issued and credited",
    ),
    'payout.success': webhookItem('payout.success', payoutEventSchema, payoutEventExamples.card_to_card, 'A payout or top-up completed'),
    'payout.failed': webhookItem('payout.failed', payoutEventSchema, payoutEventExamples.bank, 'A bank payout or top-up failed'),
  };
}
