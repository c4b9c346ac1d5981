import { randomBase62, sha256Hex } from './ids';

/** A link's secret (43 base62 characters, about 256 bits) and the SHA-256 hash that is all the database keeps. */
export function newLinkToken(): { token: string; hash: string } {
  const token = randomBase62(43);
  return { token, hash: sha256Hex(token) };
}

/** Anything that cannot be one of our tokens is not looked up at all. */
export function linkTokenHash(token: string): string | null {
  return /^[0-9A-Za-z]{43}$/.test(token) ? sha256Hex(token) : null;
}

export function appUrl(): string {
  return (process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/$/, '');
}
