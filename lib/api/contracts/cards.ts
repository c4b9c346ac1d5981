import { z } from 'zod';
import { MAX_CARDS_PER_BATCH } from '../../batches/batch-limits';
import { createCardSchema } from '../../cards/create-card';
import { cardPhoneSchema } from '../../cards/correct-card-phone';
import { cardStatusSchema } from '../../cards/set-card-status';
import { MESSAGE_CHANNELS, MESSAGE_KINDS, MESSAGE_STATUSES } from '../../messages/message-kinds';
import { shareCardSchema } from '../../messages/share-card';
import { redemptionRequestSchema } from '../../redemptions/redemption-request';
import { confirmSpendSchema } from '../../spend-codes/confirm-spend';
import { cardNumberParam, defineContracts, pageParams } from './contract';
import { capturedHoldExample, holdSchema } from './holds';
import { batchItemErrorSchema, currency, exampleTimes, minorUnits, pageOf, reg, timestamp } from './schemas';
import { spendCodeAccepted } from './spend-code-schema';

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
    location_id: z.int().nullable().meta({ description: 'The branch (GET /locations) it happened at; null when none was named' }),
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

const messageStatus = z.enum(MESSAGE_STATUSES).meta({
  description:
    'not_sent_test_mode: test mode only records it; queued: waiting to be sent; sent: the provider took it; delivered: the provider reported it delivered; failed: refused, or given up (see error)',
});

const sharedCardSchema = reg(
  'SharedCard',
  z.strictObject({
    link_url: z.string().meta({ description: 'The card page’s new link; the card’s earlier link stops working' }),
    status: messageStatus.nullable().meta({ description: 'The message’s status; null for channel none' }),
    message_reference: z
      .string()
      .nullable()
      .meta({ description: 'The message carrying the link (see GET /card/{card_number}/messages); null for channel none' }),
  }),
);

const cardMessageSchema = reg(
  'CardMessage',
  z.strictObject({
    message_reference: z.string(),
    kind: z.enum(MESSAGE_KINDS),
    channel: z.enum(MESSAGE_CHANNELS),
    to: z.string().meta({ description: 'The phone number or email address, masked' }),
    text: z.string().nullable().meta({ description: 'The full text, in the business’s customer language; null only for a moment after it is queued' }),
    status: messageStatus,
    error: z.string().nullable().meta({ description: 'Why it failed, or the last try’s trouble, in the provider’s words where it gave some' }),
    provider_message_id: z.string().nullable(),
    created_at: timestamp,
  }),
  'Beyond SPEC.md. A message to the cardholder. It never carries more of the card number than its last four digits.',
);

const cardMessagePageSchema = reg('CardMessagePage', pageOf(cardMessageSchema));

export type GiftCard = z.output<typeof giftCardSchema>;
export type SharedCard = z.output<typeof sharedCardSchema>;
export type CardMessage = z.output<typeof cardMessageSchema>;
export type CardMessagePage = z.output<typeof cardMessagePageSchema>;
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
  location_id: 3,
};

const sharedCardExample: SharedCard = {
  link_url: 'https://gift.example.com/c/Xq3v9LmP2sT8aR4nB7cK1dF6hJ0wE5yU2iO9pA3sD4f',
  status: 'queued',
  message_reference: 'chm_5f0c1e2a3b4d4c6e8f9a0b1c2d3e4f5a',
};

const cardMessageExample: CardMessage = {
  message_reference: 'chm_5f0c1e2a3b4d4c6e8f9a0b1c2d3e4f5a',
  kind: 'money_added',
  channel: 'sms',
  to: '+251******567',
  text: 'Abebe Shop: ETB 500.00 added to your gift card ending 1138. Balance now ETB 1,500.00.',
  status: 'delivered',
  error: null,
  provider_message_id: '8d6e7f10-2b3c-4d5e-9f60-718293a4b5c6',
  created_at: created,
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
    description:
      'One card per customer, currency and business. first_name is required when the phone number is new to the service. Beyond SPEC.md: notify true (default false) turns the card’s messages on (SMS to its phone, email when one is known): the holder gets its card page link now, and then your business’s kinds of message (money added or spent, expiry reminders). Test mode records the messages without sending them.',
    body: {
      schemas: { CreateCardRequest: createCardSchema },
      examples: { CreateCardRequest: { phone_number: '+251911234567', currency: 'ETB', first_name: 'Abebe', last_name: 'Kebede', notify: true } },
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
  shareCard: {
    method: 'post',
    path: '/card/{card_number}/share',
    scope: 'cards',
    tag: 'Cards',
    summary: 'Send the card its page link',
    description:
      'Beyond SPEC.md. Makes a new link to the card’s page (the earlier link stops working) and sends it to the holder by sms or email, which also turns the card’s messages on from now. channel none only answers the link, for a business that delivers it itself. Answered at once with 202: the message is sent after the answer (test mode records it as not_sent_test_mode and sends nothing).',
    pathParams: cardNumberParam,
    body: { schemas: { ShareCardRequest: shareCardSchema }, examples: { ShareCardRequest: { channel: 'sms' } } },
    success: { status: 202, message: 'Gift card link created', data: sharedCardSchema, examples: { shared: sharedCardExample } },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found'],
  },
  listCardMessages: {
    method: 'get',
    path: '/card/{card_number}/messages',
    scope: 'read',
    tag: 'Cards',
    summary: 'List the messages sent to a card’s holder',
    description: 'Beyond SPEC.md. Newest first, with each message’s full text and delivery status.',
    pathParams: cardNumberParam,
    query: pageParams,
    success: {
      status: 200,
      message: 'Messages retrieved successfully',
      data: cardMessagePageSchema,
      examples: { page: { items: [cardMessageExample], total: 1, page: 1, limit: 15, pages: 1 } },
    },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found'],
  },
  redeemCard: {
    method: 'post',
    path: '/card/{card_number}/redemptions',
    // A till takes money from a card for the business, as a payment collects it: not a payout of the business's money.
    scope: 'payments',
    tag: 'Cards',
    summary: 'Redeem a card: spend its money at your business',
    description:
      'Beyond SPEC.md. For a till or a checkout that takes gift cards: moves amount from the card to your business account at once, in one transaction. The card must be active and hold the amount (held money is not available); concurrent redemptions queue and never take it below zero. The redemption fee of your fee schedule (applies_to redemption; none by default) is paid by the business out of what it receives. Not a payout: the payout limits do not apply. A card.redeemed event goes out with the movement. location_id names the branch it happened at (GET /locations; another business’s is 404). Over your spend_code_over (Settings, or the back office’s limits) nothing moves yet: the card is checked as a redemption would check it (too little on it is refused at once), a 6-digit code goes by SMS to the card’s phone, and the answer is 202 with a confirmation_reference for POST /card/confirmations/{confirmation_reference}. Needs the payments scope. Idempotency-Key is honoured (a retry gets the same 202, and no second code).',
    pathParams: { card_number: 'The 16-digit card number' },
    body: {
      schemas: { RedeemCardRequest: redemptionRequestSchema },
      examples: { RedeemCardRequest: { amount: 2550, merchant_reference: 'till-7 receipt 0042' } },
    },
    success: { status: 200, message: 'Gift card redeemed successfully', data: redemptionSchema, examples: { redemption: redemptionExample } },
    accepted: spendCodeAccepted('redemption'),
    errors: [
      'validation_error',
      'invalid_card_number',
      'card_not_found',
      'card_disabled',
      'insufficient_balance',
      'amount_below_fee',
      'location_not_found',
      'spend_codes_paused',
    ],
  },
  confirmSpend: {
    method: 'post',
    path: '/card/confirmations/{confirmation_reference}',
    // It finishes a redemption or a capture: the till's scope, as they have.
    scope: 'payments',
    tag: 'Cards',
    summary: 'Complete a spend with the cardholder’s code',
    description:
      'Beyond SPEC.md. A redemption or a hold’s capture over your spend_code_over (Settings, or the back office’s limits) answers 202 with a confirmation_reference and sends a 6-digit code by SMS to the card’s phone (whatever the card’s and your message settings; test mode sends none and the code is always 000000). Send the code here within 5 minutes to complete the spend: it runs then, in one transaction, with the checks, posting, card.redeemed or hold.captured event of the call it completes, which it answers. A code works once: another confirm of a completed confirmation is 409 Confirmation already used, and two at once complete the spend once. A wrong code is 400 Invalid code with the tries left; the third ends the confirmation (409 Confirmation ended, even with the right code). After 5 minutes: 409 Confirmation expired. A spend the card or hold refuses now (too little on the card, the hold voided) is refused as the original call would refuse it, and the confirmation stays as it was. Needs the payments scope. Idempotency-Key is honoured.',
    pathParams: { confirmation_reference: 'The confirmation_reference of a 202 from a redemption or a capture' },
    body: { schemas: { ConfirmSpendRequest: confirmSpendSchema }, examples: { ConfirmSpendRequest: { code: '000000' } } },
    success: {
      status: 200,
      message: ['Gift card redeemed successfully', 'Hold captured successfully'],
      data: reg('SpendConfirmed', z.union([redemptionSchema, holdSchema]), 'Beyond SPEC.md. What the code completed: the redemption, or the captured hold.'),
      examples: { redemption: redemptionExample, capture: capturedHoldExample },
    },
    errors: [
      'validation_error',
      'invalid_request',
      'confirmation_not_found',
      'invalid_code',
      'confirmation_used',
      'confirmation_ended',
      'confirmation_expired',
      'card_not_found',
      'card_disabled',
      'insufficient_balance',
      'amount_below_fee',
      'hold_captured',
      'hold_voided',
      'hold_expired',
    ],
  },
});
