import { type CountryCode, getCountryCallingCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** What a typed phone number may be stored as: customers.phone_number (E.164) or customers.national_number. */
export interface PhoneCandidates {
  e164: string[];
  national: string[];
}

/** Spaces, dashes, dots and brackets people put between digits. */
export const compactQuery = (input: string) => input.trim().replace(/[\s\-().]/g, '');

/**
 * Every form a person types a phone in, read with the business's country:
 * `+251 911 234 567`, `251911234567`, `00251911234567`, `0911 234 567`, `911234567`.
 * Null when the text cannot be a phone number (letters, or fewer than 6 digits).
 */
export function phoneCandidates(input: string, country: string): PhoneCandidates | null {
  const compact = compactQuery(input);
  if (!/^\+?\d{6,16}$/.test(compact)) return null;
  const e164 = new Set<string>();
  const national = new Set<string>();
  const add = (text: string, region?: CountryCode) => {
    const phone = parsePhoneNumberFromString(text, region);
    if (phone) {
      e164.add(phone.number);
      national.add(phone.nationalNumber);
    }
  };
  if (compact.startsWith('+')) {
    e164.add(compact);
    add(compact);
  } else if (compact.startsWith('00')) {
    e164.add(`+${compact.slice(2)}`);
    add(`+${compact.slice(2)}`);
  } else {
    national.add(compact);
    national.add(compact.replace(/^0+/, ''));
    const region = isSupportedCountry(country) ? (country as CountryCode) : undefined;
    if (region) {
      const code = getCountryCallingCode(region);
      // 251911234567: the country code without its plus.
      if (compact.startsWith(code) && compact.length >= code.length + 6) {
        national.add(compact.slice(code.length));
        e164.add(`+${compact}`);
      }
      add(compact, region);
    }
  }
  national.delete('');
  return { e164: [...e164], national: [...national] };
}
