import { sql } from 'drizzle-orm';
import { positiveEnv } from '../config';
import { TokenBuckets } from '../rate-limits/token-buckets';
import { SharedBuckets } from '../rate-limits/shared-buckets';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db } from '../db/client';
import { sha256Hex } from '../ids';

/** Wrong passwords an email may have from one address before each further try waits. */
const FREE_FAILURES = 5;
const MAX_DELAY_MS = 15 * 60_000;
const MAX_TRACKED = 100_000;

interface Failures {
  count: number;
  lastAt: number;
}

/** What authorizeSignIn asks of the sign-in limits. */
export interface SignInGate {
  /** Counts an attempt; false when it must be refused without looking at the password. */
  admit(email: string, address: string): boolean | Promise<boolean>;
  failed(email: string, address: string): void | Promise<void>;
  succeeded(email: string, address: string): void | Promise<void>;
}

/**
 * Dashboard sign-in limits, in this process's memory (SharedSignInLimits is the fleet's):
 * - per client address, across all emails (SIGN_IN_ATTEMPTS_PER_MINUTE, default 20),
 *   so one address cannot spray passwords over many accounts;
 * - per email and address, a delay that doubles with each wrong password after the
 *   fifth (1 s, 2 s, ... up to 15 min) and ends at a right one. It is never per email
 *   alone: an attacker failing from elsewhere slows only themselves, and the real
 *   user at their own address signs in as usual.
 */
export class SignInLimits implements SignInGate {
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
// Stored hashed: the table need not hold who tried to sign in from where.
const sharedPairKey = (email: string, address: string) => sha256Hex(pairKey(email, address));

export function delayAfter(failures: number): number {
  return failures < FREE_FAILURES ? 0 : Math.min(1000 * 2 ** (failures - FREE_FAILURES), MAX_DELAY_MS);
}

/**
 * The same two limits for the whole fleet: the per-address bucket is a shared
 * bucket taken one token per attempt, and the wrong sign-ins per email and
 * address are rows every instance reads, so an attacker gains nothing by
 * spreading tries over instances.
 */
export class SharedSignInLimits implements SignInGate {
  readonly perAddress: SharedBuckets;

  constructor(
    private readonly db: () => Db,
    attemptsPerMinute: number,
  ) {
    this.perAddress = new SharedBuckets('sign-in', { perSecond: attemptsPerMinute / 60, burst: attemptsPerMinute, lease: 1 });
  }

  async admit(email: string, address: string): Promise<boolean> {
    const { rows } = await this.db().execute<{ failures: number; waited_ms: number }>(sql`
      SELECT failures, extract(epoch FROM now() - last_at) * 1000 AS waited_ms FROM sign_in_failures WHERE pair_key = ${sharedPairKey(email, address)}`);
    if (rows[0] && Number(rows[0].waited_ms) < delayAfter(Number(rows[0].failures))) return false;
    return (await this.perAddress.take(this.db(), address)).ok;
  }

  async failed(email: string, address: string): Promise<void> {
    await this.db().execute(sql`
      INSERT INTO sign_in_failures (pair_key, failures, last_at) VALUES (${sharedPairKey(email, address)}, 1, now())
      ON CONFLICT (pair_key) DO UPDATE SET failures = sign_in_failures.failures + 1, last_at = now()`);
  }

  async succeeded(email: string, address: string): Promise<void> {
    await this.db().execute(sql`DELETE FROM sign_in_failures WHERE pair_key = ${sharedPairKey(email, address)}`);
  }
}

/** Failures quiet for longer than the longest delay are forgotten, a bounded batch per pass. */
async function pruneSignInFailures(db: Db): Promise<boolean> {
  const { rowCount } = await db.execute(sql`
    DELETE FROM sign_in_failures WHERE pair_key IN (
      SELECT pair_key FROM sign_in_failures WHERE last_at < now() - ${MAX_DELAY_MS} * interval '1 millisecond' LIMIT 5000)`);
  return (rowCount ?? 0) === 5000;
}

export const startSignInFailurePruning = (db: Db): Stop => backgroundLoop('sign-in failure pruning', 60_000, () => pruneSignInFailures(db));

// On globalThis: each route is bundled apart, and the limits must be one per process.
const shared = globalThis as unknown as { __signInLimits?: SharedSignInLimits };

export function signInLimits(getDb: () => Db): SharedSignInLimits {
  shared.__signInLimits ??= new SharedSignInLimits(getDb, positiveEnv('SIGN_IN_ATTEMPTS_PER_MINUTE', 20));
  return shared.__signInLimits;
}

/** The error message next-auth passes to signIn()'s `error` when an attempt is refused for being one too many. */
export const SIGN_IN_LIMITED = 'TooManyAttempts';
