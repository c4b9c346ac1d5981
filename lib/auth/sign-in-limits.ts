import { positiveEnv, TokenBuckets } from '../api/rate-limit';

/** Wrong passwords an email may have from one address before each further try waits. */
const FREE_FAILURES = 5;
const MAX_DELAY_MS = 15 * 60_000;
const MAX_TRACKED = 100_000;

interface Failures {
  count: number;
  lastAt: number;
}

/**
 * Dashboard sign-in limits, in this process's memory:
 * - per client address, across all emails (SIGN_IN_ATTEMPTS_PER_MINUTE, default 20),
 *   so one address cannot spray passwords over many accounts;
 * - per email and address, a delay that doubles with each wrong password after the
 *   fifth (1 s, 2 s, ... up to 15 min) and ends at a right one. It is never per email
 *   alone: an attacker failing from elsewhere slows only themselves, and the real
 *   user at their own address signs in as usual.
 */
export class SignInLimits {
  readonly perAddress: TokenBuckets;
  private readonly failures = new Map<string, Failures>();

  constructor(attemptsPerMinute: number) {
    this.perAddress = new TokenBuckets({ perSecond: attemptsPerMinute / 60, burst: attemptsPerMinute });
  }

  /** Counts an attempt; false when it must be refused without looking at the password. */
  admit(email: string, address: string, now = Date.now()): boolean {
    const waited = this.failures.get(pairKey(email, address));
    if (waited && now < waited.lastAt + delayAfter(waited.count)) return false;
    return this.perAddress.take(address, now).ok;
  }

  failed(email: string, address: string, now = Date.now()): void {
    const key = pairKey(email, address);
    const previous = this.failures.get(key);
    this.failures.delete(key);
    // Re-inserted last, so the map's first entries are the longest quiet: those go first when it is full.
    if (this.failures.size >= MAX_TRACKED) this.failures.delete(this.failures.keys().next().value!);
    this.failures.set(key, { count: (previous?.count ?? 0) + 1, lastAt: now });
  }

  succeeded(email: string, address: string): void {
    this.failures.delete(pairKey(email, address));
  }
}

const pairKey = (email: string, address: string) => `${email.trim().toLowerCase()}|${address}`;

export function delayAfter(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(1000 * 2 ** (failures - FREE_FAILURES), MAX_DELAY_MS);
}

// On globalThis: each route is bundled apart, and the limits must be one per process.
const shared = globalThis as unknown as { __signInLimits?: SignInLimits };

export function signInLimits(): SignInLimits {
  shared.__signInLimits ??= new SignInLimits(positiveEnv('SIGN_IN_ATTEMPTS_PER_MINUTE', 20));
  return shared.__signInLimits;
}

/** The error message next-auth passes to signIn()'s `error` when an attempt is refused for being one too many. */
export const SIGN_IN_LIMITED = 'TooManyAttempts';
