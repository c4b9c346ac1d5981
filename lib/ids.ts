import { createHash, randomFillSync, randomInt } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

// Random bytes drawn 4 KB at a time: one call to the system's generator per
// hundred or so identifiers instead of one each, on every payout's hot path.
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomByte(): number {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++];
}

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    const byte = randomByte();
    // 248 = 4 * 62: rejecting the rest keeps every character equally likely
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function luhnCheckDigit(digits: string): number {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isLuhnValid(number: string): boolean {
  return /^\d{2,}$/.test(number) && luhnCheckDigit(number.slice(0, -1)) === Number(number.at(-1));
}

/** 16 random digits, the last a Luhn check digit; never starts with 0. */
export function newCardNumber(): string {
  let body = String(randomInt(1, 10));
  for (let i = 0; i < 14; i++) body += String(randomInt(0, 10));
  return body + luhnCheckDigit(body);
}

export const newReference = (prefix: string) => `${prefix}_${randomBase62(24)}`;

/** The id of one HTTP request, quoted in logs and in 500 answers. */
export const newRequestId = () => `req_${randomBase62(20)}`;
