import type { ErrorCode } from '../errors';
import type { HttpMethod } from '../api/contracts/contract';

export type Api = 'v1' | 'admin';

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
  invalid_code: 'The code is not the one the card’s phone got; after the third wrong code the confirmation ends',
  confirmation_not_found: 'No confirmation with this reference belongs to your business and mode',
  confirmation_used: 'The confirmation was already completed (the spend was made once; `error` names it)',
  confirmation_expired: 'The code’s 5 minutes have passed; start the redemption or capture again',
  confirmation_ended: 'Three wrong codes ended this confirmation; start the redemption or capture again',
  spend_codes_paused:
    'The card had 6 wrong codes in 24 hours, or 3 codes wait at once: no new code is sent to its phone until the wrong ones are a day old or those waiting end',
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
