import { z } from 'zod';
import { captureRequestSchema, holdRequestSchema } from '../../holds/till-hold-request';
import { cardNumberParam, defineContracts, pageParams } from './contract';
import { currency, exampleTimes, minorUnits, pageOf, reg, timestamp } from './schemas';
import { spendCodeAccepted } from './spend-code-schema';

export const holdStatus = z.enum(['held', 'captured', 'voided', 'expired']);

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
    location_id: z.int().nullable().meta({ description: 'The branch (GET /locations) it happened at; null when none was named' }),
  }),
  'Beyond SPEC.md. A till’s hold on a card. Empty optional fields are left out.',
);

const holdPageSchema = reg('HoldPage', pageOf(holdSchema));

export type Hold = z.output<typeof holdSchema>;
export type HoldPage = z.output<typeof holdPageSchema>;

const { updated } = exampleTimes;

const holdExample: Hold = {
  hold_reference: 'hld_3Tq9wE6rY1uI8oP2aS5dF7gH',
  status: 'held',
  card_number: '4000123412341234',
  currency: 'ETB',
  amount: 5000,
  captured_amount: 0,
  fee: 0,
  merchant_reference: 'pump 4',
  expires_at: '2025-06-08T09:30:02.512Z',
  created_at: updated,
  location_id: 3,
};

export const capturedHoldExample: Hold = {
  ...holdExample,
  status: 'captured',
  captured_amount: 3750,
  ended_at: '2025-06-01T09:41:17.030Z',
};

const voidedHoldExample: Hold = { ...holdExample, status: 'voided', ended_at: '2025-06-01T09:41:17.030Z' };

const holdPageExample: HoldPage = { items: [capturedHoldExample], total: 1, page: 1, limit: 15, pages: 1 };

/** A till's holds: money set aside on a card, then captured or voided. */
export const holdContracts = defineContracts({
  placeHold: {
    method: 'post',
    path: '/card/{card_number}/holds',
    // A hold is a redemption in two steps: the till's scope.
    scope: 'payments',
    tag: 'Holds',
    summary: 'Hold money on a card for a till',
    description:
      'Beyond SPEC.md. Sets amount of an active card aside at once: available_amount drops and held_amount rises, so no payout, redemption or other hold can spend it (the sum of holds never passes the balance). The hold ends by capture, void, or expiry: expires_in_seconds defaults to 7 days, at most 30 days; the service releases an expired hold to the card within a minute of expires_at, and a capture after it is refused. A disabled or cancelled card takes no new hold. hold.created goes out with it. location_id names the branch (GET /locations; another business’s is 404). Needs the payments scope. Idempotency-Key is honoured.',
    pathParams: cardNumberParam,
    body: {
      schemas: { PlaceHoldRequest: holdRequestSchema },
      examples: { PlaceHoldRequest: { amount: 5000, expires_in_seconds: 3600, merchant_reference: 'pump 4' } },
    },
    success: { status: 201, message: 'Hold placed successfully', data: holdSchema, examples: { hold: holdExample } },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found', 'card_disabled', 'insufficient_balance', 'location_not_found'],
  },
  listCardHolds: {
    method: 'get',
    path: '/card/{card_number}/holds',
    scope: 'read',
    tag: 'Holds',
    summary: 'List a card’s holds',
    description: 'Beyond SPEC.md. Every till hold of the card in every state, newest first.',
    pathParams: cardNumberParam,
    query: pageParams,
    success: { status: 200, message: 'Holds retrieved successfully', data: holdPageSchema, examples: { page: holdPageExample } },
    errors: ['validation_error', 'invalid_card_number', 'card_not_found'],
  },
  getHold: {
    method: 'get',
    path: '/card/holds/{hold_reference}',
    scope: 'read',
    tag: 'Holds',
    summary: 'Get a hold',
    pathParams: { hold_reference: 'The hold_reference of POST /card/{card_number}/holds' },
    success: { status: 200, message: 'Hold retrieved successfully', data: holdSchema, examples: { hold: holdExample } },
    errors: ['invalid_request', 'hold_not_found'],
  },
  captureHold: {
    method: 'post',
    path: '/card/holds/{hold_reference}/capture',
    scope: 'payments',
    tag: 'Holds',
    summary: 'Capture a hold: redeem it',
    description:
      'Beyond SPEC.md. Spends amount of the hold at your business as a redemption (the whole hold when amount is left out; at most what is held) and gives the rest back to the card, in one transaction; the redemption fee of your fee schedule is paid out of it. Capture, void and expiry race to exactly one winner: the same capture repeated answers the captured hold again; after a void, an expiry or another capture it is 409. A hold of a disabled card can still be captured; a cancelled card’s cannot (void it: the money goes to your business account). Over your spend_code_over nothing is captured yet: the answer is 202 with a confirmation_reference, and POST /card/confirmations/{confirmation_reference} with the cardholder’s code captures it. hold.captured goes out with it. Needs the payments scope.',
    pathParams: { hold_reference: 'The hold_reference of POST /card/{card_number}/holds' },
    body: { schemas: { CaptureHoldRequest: captureRequestSchema }, examples: { CaptureHoldRequest: { amount: 3750 } } },
    success: { status: 200, message: 'Hold captured successfully', data: holdSchema, examples: { captured: capturedHoldExample } },
    accepted: spendCodeAccepted('capture'),
    errors: [
      'validation_error',
      'invalid_request',
      'hold_not_found',
      'card_not_found',
      'amount_below_fee',
      'hold_captured',
      'hold_voided',
      'hold_expired',
      'location_not_found',
      'spend_codes_paused',
    ],
  },
  voidHold: {
    method: 'post',
    path: '/card/holds/{hold_reference}/void',
    scope: 'payments',
    tag: 'Holds',
    summary: 'Void a hold: release it to the card',
    description:
      'Beyond SPEC.md. Gives the whole hold back to the card (to your business account when the card was cancelled meanwhile). The same void repeated answers the voided hold again; after a capture or an expiry it is 409. hold.voided goes out with it. Needs the payments scope.',
    pathParams: { hold_reference: 'The hold_reference of POST /card/{card_number}/holds' },
    success: { status: 200, message: 'Hold voided successfully', data: holdSchema, examples: { voided: voidedHoldExample } },
    errors: ['invalid_request', 'hold_not_found', 'hold_captured', 'hold_expired'],
  },
});
