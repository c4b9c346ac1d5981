import { z } from 'zod';
import { MAX_CARDS_PER_BATCH } from '../../batches/batch-limits';
import { createCardSchema } from '../../cards/create-card';
import { cardPhoneSchema } from '../../cards/correct-card-phone';
import { cardStatusSchema } from '../../cards/set-card-status';
import { redemptionRequestSchema } from '../../redemptions/redemption-request';
import { cardNumberParam, defineContracts, pageParams } from './contract';
import { batchItemErrorSchema, currency, exampleTimes, minorUnits, reg, timestamp } from './schemas';

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

const cardPageSchema = reg(
  'CardPage',
  z.strictObject({ items: z.array(giftCardSchema), page: z.int().min(1), pages: z.int().min(0), size: z.int().min(1), total: z.int().min(0) }),
);

const redemptionSchema = reg(
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

const cardBatchSchema = reg(
  'CardBatchResults',
  z.strictObject({
    results: z
      .array(z.union([giftCardSchema, batchItemErrorSchema]))
      .meta({ description: 'One per item of cards, in the same order: the card as POST /card answers it, or that call’s error' }),
  }),
);

export type GiftCard = z.output<typeof giftCardSchema>;
export type CardPage = z.output<typeof cardPageSchema>;
export type CardBatchResults = z.output<typeof cardBatchSchema>;
export type Redemption = z.output<typeof redemptionSchema>;

const { created, updated } = exampleTimes;

export const giftCardExample: GiftCard = {
  ref_id: '6f1c2a34-9b7e-4f1e-a1d2-6c1b9f0e8a71',
  name: 'Abebe Kebede',
  card_number: '4921583047261138',
  currency: 'ETB',
  status: 1,
  last_four: '1138',
  is_scoped: 1,
  business_id: 42,
  available_amount: 150000,
  held_amount: 0,
  created_at: created,
  updated_at: created,
  expires_at: null,
};

const cardPageExample: CardPage = { items: [giftCardExample], page: 1, pages: 1, size: 15, total: 1 };

const redemptionExample: Redemption = {
  reference: 'rdm_8Hw2kQ5tR9vL3xN7bM1cZ4pD',
  card_number: '4000123412341234',
  currency: 'ETB',
  amount: 2550,
  fee: 0,
  net_amount: 2550,
  merchant_reference: 'till-7 receipt 0042',
  available_amount: 7450,
  held_amount: 0,
  created_at: updated,
};

const cardBatchExample: CardBatchResults = {
  results: [giftCardExample, { status: 'error', message: 'Gift card already exists', error: 'This customer already has a ETB gift card with this business.' }],
};

/** Gift cards: issue, read, enable or disable, cancel, and spend at the till. */
export const cardContracts = defineContracts({
  createCard: {
    method: 'post',
    path: '/card',
    scope: 'cards',
    tag: 'Cards',
    summary: 'Create a gift card',
    description: 'One card per customer, currency and business. first_name is required when the phone number is new to the service.',
    body: {
      schemas: { CreateCardRequest: createCardSchema },
      examples: { CreateCardRequest: { phone_number: '+251911234567', currency: 'ETB', first_name: 'Abebe', last_name: 'Kebede' } },
    },
    success: { status: 201, message: 'Gift card created successfully', data: giftCardSchema, examples: { card: giftCardExample } },
    errors: ['validation_error', 'invalid_phone_number', 'user_not_found', 'card_exists'],
  },
  createCardsBatch: {
    method: 'post',
    path: '/card/batch',
    scope: 'cards',
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
    success: { status: 200, message: 'Gift card batch processed', data: cardBatchSchema, examples: { results: cardBatchExample } },
    errors: ['validation_error'],
  },
  listCards: {
    method: 'get',
    path: '/card',
    scope: 'read',
    tag: 'Cards',
    summary: 'List gift cards',
    description: 'Newest first; cancelled cards are not listed.',
    query: [
      ...pageParams,
      {
        name: 'phone_number',
        description: 'Filter by the holder’s national number, with or without its trunk 0 (911234567 or 0911234567)',
        schema: z.string(),
      },
    ],
    success: { status: 200, message: 'Gift cards retrieved successfully', data: cardPageSchema, examples: { page: cardPageExample } },
    errors: ['validation_error'],
  },
  getCard: {
    method: 'get',
    path: '/card/{card_number}',
    scope: 'read',
    tag: 'Cards',
    summary: 'Get a gift card',
    pathParams: cardNumberParam,
    success: { status: 200, message: 'Gift card retrieved successfully', data: giftCardSchema, examples: { card: giftCardExample } },
    errors: ['invalid_card_number', 'card_not_found'],
  },
  setCardStatus: {
    method: 'patch',
    path: '/card/{card_number}',
    scope: 'cards',
    tag: 'Cards',
    summary: 'Enable or disable a gift card, or correct its phone number',
    description:
      'Send status or (beyond SPEC.md) phone_number, never both (400 Validation error). status: a disabled card cannot be used for payments or payouts; a card the provider disabled can only be enabled by the provider. phone_number: moves the card, with its balance and history, to the corrected number in international format; one card per phone, currency and business still holds (409 Gift card already exists). The card’s page link stops working (make a new one); the audit log keeps both numbers masked.',
    pathParams: cardNumberParam,
    body: {
      schemas: { SetCardStatusRequest: cardStatusSchema, CorrectCardPhoneRequest: cardPhoneSchema },
      examples: { SetCardStatusRequest: { status: 'disable' }, CorrectCardPhoneRequest: { phone_number: '+251911765432' } },
    },
    success: {
      status: 200,
      message: ['Gift card disabled successfully', 'Gift card enabled successfully', 'Gift card phone number corrected successfully'],
      data: giftCardSchema,
      examples: { card: { ...giftCardExample, status: 3, updated_at: '2025-06-01T10:00:00.000Z' } },
    },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found', 'cannot_enable', 'already_disabled', 'invalid_phone_number', 'card_exists'],
  },
  cancelCard: {
    method: 'delete',
    path: '/card/{card_number}',
    scope: 'cards',
    tag: 'Cards',
    summary: 'Cancel a gift card',
    description: 'The card leaves lists and details for good; any balance moves to your business account of that mode and currency.',
    pathParams: cardNumberParam,
    success: { status: 200, message: 'Gift card cancelled successfully', data: null, examples: { cancelled: null } },
    errors: ['invalid_card_number', 'card_not_found'],
  },
  redeemCard: {
    method: 'post',
    path: '/card/{card_number}/redemptions',
    // A till takes money from a card for the business, as a payment collects it: not a payout of the business's money.
    scope: 'payments',
    tag: 'Cards',
    summary: 'Redeem a card: spend its money at your business',
    description:
      'Beyond SPEC.md. For a till or a checkout that takes gift cards: moves amount from the card to your business account at once, in one transaction. The card must be active and hold the amount (held money is not available); concurrent redemptions queue and never take it below zero. The redemption fee of your fee schedule (applies_to redemption; none by default) is paid by the business out of what it receives. Not a payout: the payout limits do not apply. A card.redeemed event goes out with the movement. Needs the payments scope. Idempotency-Key is honoured.',
    pathParams: { card_number: 'The 16-digit card number' },
    body: {
      schemas: { RedeemCardRequest: redemptionRequestSchema },
      examples: { RedeemCardRequest: { amount: 2550, merchant_reference: 'till-7 receipt 0042' } },
    },
    success: { status: 200, message: 'Gift card redeemed successfully', data: redemptionSchema, examples: { redemption: redemptionExample } },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found', 'card_disabled', 'insufficient_balance', 'amount_below_fee'],
  },
});
