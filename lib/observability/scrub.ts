export const REDACTED = '[redacted]';

// Text written by a library or an error message can quote a request: keys, webhook secrets (percent-encoded too, as in
// a query), bearer tokens and any run of 9 or more digits (card numbers, phone numbers, spaced or not) are masked.
const SECRET_TEXT = /\bsk_(?:test|live)_[0-9A-Za-z]+|\bwhsec_[0-9A-Za-z+/=%]+|\bBearer\s+\S+|\+?\d(?:[\d -]?\d){8,}/gi;

/** A text with secrets masked; the configured tokens too, whatever they look like. */
export function scrub(text: string): string {
  let out = text;
  for (const name of ['ADMIN_TOKEN', 'AUTH_SECRET', 'METRICS_TOKEN']) {
    const value = process.env[name];
    if (value && value.length >= 8 && out.includes(value)) out = out.replaceAll(value, REDACTED);
  }
  return out.replace(SECRET_TEXT, REDACTED);
}

/** Whether a text holds something scrub() would mask. */
export const holdsSecret = (text: string): boolean => scrub(text) !== text;
