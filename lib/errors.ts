/** Every failure the core can report, with the HTTP status and SPEC.md title it maps to. */
export const ERRORS = {
  validation_error: [400, 'Validation error'],
  invalid_phone_number: [400, 'Invalid phone number'],
  invalid_card_number: [400, 'Invalid card number'],
  invalid_request: [400, 'Invalid request'],
  insufficient_balance: [400, 'Insufficient balance'],
  invalid_payout_request: [400, 'Invalid payout request'],
  invalid_charge_payer: [400, 'Invalid charge payer'],
  amount_below_fee: [400, 'Amount is too small to cover the service fee'],
  same_card: [400, 'Same card'],
  currency_mismatch: [400, 'Currency mismatch'],
  card_disabled: [400, 'Gift card disabled'],
  destination_card_disabled: [400, 'Destination card disabled'],
  invalid_bank_slug: [400, 'Invalid bank slug'],
  payout_request_failed: [400, 'Payout request failed'],
  payment_not_refundable: [400, 'Payment not refundable'],
  limit_exceeded: [400, 'Limit exceeded'],
  invalid_code: [400, 'Invalid code'],
  unauthorized: [401, 'Unauthorized'],
  forbidden: [403, 'Forbidden'],
  cannot_enable: [403, 'Cannot enable'],
  card_not_found: [404, 'Gift card not found'],
  destination_card_not_found: [404, 'Destination card not found'],
  user_not_found: [404, 'User not found'],
  payment_not_found: [404, 'Payment not found'],
  payout_not_found: [404, 'Payout not found'],
  hold_not_found: [404, 'Hold not found'],
  location_not_found: [404, 'Location not found'],
  confirmation_not_found: [404, 'Confirmation not found'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'Method not allowed'],
  card_exists: [409, 'Gift card already exists'],
  duplicate_merchant_reference: [409, 'Duplicate merchant reference'],
  already_disabled: [409, 'Already disabled'],
  already_exists: [409, 'Already exists'],
  already_decided: [409, 'Already decided'],
  hold_captured: [409, 'Hold already captured'],
  hold_voided: [409, 'Hold already voided'],
  hold_expired: [409, 'Hold expired'],
  confirmation_used: [409, 'Confirmation already used'],
  confirmation_expired: [409, 'Confirmation expired'],
  confirmation_ended: [409, 'Confirmation ended'],
  spend_codes_paused: [409, 'Spend codes paused'],
  idempotency_key_reused: [409, 'Idempotency key reused'],
  request_in_progress: [409, 'Request in progress'],
  payload_too_large: [413, 'Payload too large'],
  rate_limited: [429, 'Too many requests'],
  internal: [500, 'Internal server error'],
  failed_to_initiate_payout: [502, 'Failed to initiate payout'],
  payment_request_failed: [502, 'Payment request failed'],
  refund_request_failed: [502, 'Refund request failed'],
  unavailable: [503, 'Service unavailable'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERRORS;
export type FieldErrors = Record<string, string>;

/**
 * Marks a ServiceError of any copy of this module: Next.js's bundles and the standalone process each load their own,
 * and a provider adapter registered at start by one (lib/wire-providers.ts) throws into the others.
 */
const SERVICE_ERROR = Symbol.for('giftcard.ServiceError');

export class ServiceError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: a subclass (RateLimitedError) keeps the ordinary check.
    if (this !== ServiceError) return Function.prototype[Symbol.hasInstance].call(this, value);
    return typeof value === 'object' && value !== null && SERVICE_ERROR in value;
  }

  readonly [SERVICE_ERROR] = true;
  readonly code: ErrorCode;
  readonly detail: string | FieldErrors;
  /** The request field the failure belongs on, when one does (the dashboard puts the message there); never sent in API answers. */
  readonly field?: string;

  constructor(code: ErrorCode, detail?: string | FieldErrors, options?: { field?: string }) {
    super(ERRORS[code][1]);
    this.name = 'ServiceError';
    this.code = code;
    this.detail = detail ?? ERRORS[code][1];
    if (options?.field) this.field = options.field;
  }

  get status(): number {
    return ERRORS[this.code][0];
  }

  get title(): string {
    return ERRORS[this.code][1];
  }
}

export function validationError(field: string, message: string): ServiceError {
  return new ServiceError('validation_error', { [field]: message });
}

/** The one answer for a card number that is not one of the caller's business's cards (never saying whether it exists elsewhere). */
export const cardNotFound = () => new ServiceError('card_not_found', 'No gift card with this number belongs to your business.');
