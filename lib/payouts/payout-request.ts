import { z } from 'zod';
import { ServiceError, validationError } from '../errors';
import { findBank } from '../providers/banks';
import { amountSchema, parseInput, requiredText } from '../validation';
import { payerRule } from './payout-quote';
import type { PayoutType } from './payout-view';

const DESTINATION_FIELDS: Record<PayoutType, string[]> = {
  b2b: ['merchant_id'],
  card_to_card: ['destination_card_number'],
  bank: ['bank_slug', 'account_number', 'account_name'],
};

const base = {
  card_number: requiredText('card_number'),
  amount: z.unknown().pipe(amountSchema),
  charge_payer: z.string({ error: 'charge_payer must be a string.' }).optional(),
};
export const schemas = {
  b2b: z.object({ ...base, merchant_id: requiredText('merchant_id') }),
  card_to_card: z.object({ ...base, destination_card_number: requiredText('destination_card_number') }),
  bank: z.object({
    ...base,
    bank_slug: requiredText('bank_slug'),
    account_number: requiredText('account_number', 34),
    account_name: requiredText('account_name', 200),
  }),
};

type PayoutInput = z.output<typeof schemas.bank> & z.output<typeof schemas.b2b> & z.output<typeof schemas.card_to_card>;

export interface PayoutRequest {
  type: PayoutType;
  /** Typed with every destination's fields, but only the request type's are there. */
  input: PayoutInput;
  chargePayer: string;
  /** The payer that takes the fee off the amount received: business (B2B, bank) or receiver. */
  feeFromAmount: boolean;
}

/** The destination type is decided by which fields were sent, before anything else is checked. */
function payoutTypeOf(input: Record<string, unknown>): PayoutType {
  const sent = (f: string) => input[f] !== undefined && input[f] !== null;
  const types = (Object.keys(DESTINATION_FIELDS) as PayoutType[]).filter((t) => DESTINATION_FIELDS[t].some(sent));
  if (types.length > 1) {
    throw new ServiceError('invalid_payout_request', 'Send exactly one destination: merchant_id, destination_card_number, or the bank fields.');
  }
  if (types.length === 0) {
    throw validationError(
      'destination',
      'Send merchant_id (B2B), destination_card_number (card-to-card), or bank_slug, account_number and account_name (bank).',
    );
  }
  if (types[0] === 'bank' && !DESTINATION_FIELDS.bank.every(sent)) {
    throw new ServiceError('invalid_payout_request', 'bank_slug, account_number and account_name must be sent together.');
  }
  return types[0];
}

/** The body of POST /card/payouts, checked as far as it can be without reading the database. */
export function parsePayoutRequest(body: unknown): PayoutRequest {
  if (typeof body !== 'object' || body === null) throw validationError('body', 'The request body must be a JSON object.');
  const type = payoutTypeOf(body as Record<string, unknown>);
  const input = parseInput(schemas[type], body) as PayoutInput;
  const { chargePayer, feeFromAmount } = payerRule(type, input.charge_payer);
  if (type === 'card_to_card' && input.card_number === input.destination_card_number) {
    throw new ServiceError('same_card', 'The source and destination cards are the same card.');
  }
  if (type === 'bank' && !findBank(input.bank_slug)) {
    throw new ServiceError('payout_request_failed', 'The bank_slug is not one of GET /banks.', { field: 'bank_slug' });
  }
  return { type, input, chargePayer, feeFromAmount };
}
