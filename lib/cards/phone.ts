import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';
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

/** The list filter's national number, with or without its trunk 0, or an international number's national part, as the candidates to match. */
export function nationalNumberCandidates(input: string): string[] {
  if (input.trim().startsWith('+')) {
    const phone = parsePhoneNumberFromString(input.trim());
    return phone?.isValid() ? [phone.nationalNumber] : [];
  }
  const digits = input.replace(/[\s\-().]/g, '');
  if (!/^\d{1,20}$/.test(digits)) return [];
  const withoutTrunk = digits.replace(/^0/, '');
  return withoutTrunk === digits ? [digits] : [digits, withoutTrunk];
}

/** The country a dashboard form reads national numbers as when the business has none set. */
const DEFAULT_PHONE_COUNTRY = 'ET';

/**
 * A number typed in a dashboard form, as people write it: national (`0911 234 567`,
 * `911234567`), with the country code but no plus (`251911234567`), or international
 * (`+251 911 234 567`). National numbers are read as the business's country. Forms and
 * CSV uploads read numbers with it; the API never calls this: it takes E.164 only (normalisePhone).
 */
export function normaliseTypedPhone(input: string, country: string = DEFAULT_PHONE_COUNTRY): NormalisedPhone {
  const trimmed = input.trim();
  if (!/^\+?[\d\s\-().]{4,32}$/.test(trimmed)) {
    throw new ServiceError('invalid_phone_number', 'Enter a phone number using digits only, e.g. 0911 234 567 or +251 911 234 567.');
  }
  const phone = parsePhoneNumberFromString(trimmed, (/^[A-Z]{2}$/.test(country) ? country : DEFAULT_PHONE_COUNTRY) as CountryCode);
  if (!phone?.isValid()) {
    throw new ServiceError('invalid_phone_number', 'This is not a valid phone number. Check the digits, or start with + and the country code.');
  }
  return { e164: phone.number, national: phone.nationalNumber };
}

/** A phone number for audit lines and support: its country code and first digit, and its last two; the rest hidden. */
export function maskPhone(e164: string): string {
  const digits = e164.replace(/^\+/, '');
  if (digits.length <= 6) return `+${'•'.repeat(digits.length)}`;
  return `+${digits.slice(0, 4)}${'•'.repeat(digits.length - 6)}${digits.slice(-2)}`;
}
