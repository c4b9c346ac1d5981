import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { ServiceError } from '../errors';

export interface NormalisedPhone {
  e164: string;
  national: string;
}

/** E.164 in, E.164 out; anything not a valid international number is refused. */
export function normalisePhone(input: string): NormalisedPhone {
  const trimmed = input.trim();
  if (!trimmed.startsWith('+')) {
    throw new ServiceError('invalid_phone_number', 'Give the phone number in international format with its country code, e.g. +251911234567.');
  }
  const phone = parsePhoneNumberFromString(trimmed);
  if (!phone?.isValid()) {
    throw new ServiceError('invalid_phone_number', 'The phone number is not a valid international number.');
  }
  return { e164: phone.number, national: phone.nationalNumber };
}

/** The list filter's national number, with or without its trunk 0, as the candidates to match. */
export function nationalNumberCandidates(input: string): string[] {
  const digits = input.replace(/[\s\-().]/g, '');
  if (!/^\d{1,20}$/.test(digits)) return [];
  const withoutTrunk = digits.replace(/^0/, '');
  return withoutTrunk === digits ? [digits] : [digits, withoutTrunk];
}
