import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Mode } from '../validation';

/** How long a code works after it is sent. */
export const SPEND_CODE_TTL_SECONDS = 5 * 60;
/** Wrong codes that end a confirmation: the third one ends it, and no code completes it after. */
export const SPEND_CODE_TRIES = 3;
/** Test mode sends no SMS: its code is always this. */
const TEST_SPEND_CODE = '000000';

/** A confirmation's random salt, the only thing stored about its code. */
export const newCodeSalt = (): string => randomBytes(16).toString('base64url');

function serverSecret(): string {
  const secret = process.env.AUTH_SECRET;
  if (!secret) throw new Error('AUTH_SECRET is unset: spend codes cannot be made (npm start sets it).');
  return secret;
}

/**
 * A confirmation's 6-digit code: derived from its salt and the server's AUTH_SECRET, so the code is never stored
 * (the sender derives it again to write the SMS, the confirmation to compare), and a copy of the database alone
 * cannot tell it. Test mode's is always 000000.
 */
export function spendCode(mode: Mode, salt: string): string {
  if (mode === 'test') return TEST_SPEND_CODE;
  const digest = createHmac('sha256', serverSecret()).update(`spend-code:${salt}`).digest();
  // 2^48 is about 2.8e14 values: taken modulo 10^6 the bias is below one part in 10^8.
  return String(digest.readUIntBE(0, 6) % 1_000_000).padStart(6, '0');
}

/** Whether what the cashier typed is the code, compared in constant time. */
export function codeMatches(mode: Mode, salt: string, typed: string): boolean {
  const expected = Buffer.from(spendCode(mode, salt));
  const given = Buffer.from(typed);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A code as message lists show it: the text is stored this way and the real code is put in only when sending. */
export const MASKED_SPEND_CODE = '******';
