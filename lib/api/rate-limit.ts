import type { Db } from '../db/client';
import { sha256Hex } from '../ids';
import { positiveEnv } from '../config';
import { SharedBuckets } from '../rate-limits/shared-buckets';
import { RateLimitedError, TokenBuckets } from '../rate-limits/token-buckets';

// On globalThis: each route is bundled apart, and a key's leases must be one per process, not one per route.
const shared = globalThis as unknown as { __apiKeyBuckets?: SharedBuckets; __apiKeyMemoryBuckets?: TokenBuckets; __adminTokenBuckets?: SharedBuckets };

/** What an API key's bucket looks like: a secret key of either mode (other tokens get their 401 without a bucket). */
const API_KEY_SHAPE = /^sk_(test|live)_[0-9A-Za-z]{32}$/;

/**
 * RATE_LIMIT_PER_SECOND (default 1000) and RATE_LIMIT_BURST (default 2000) per API key, for the
 * whole fleet. The defaults sit above what one key reaches in our own benches; a deployment sets
 * its own. Each instance leases RATE_LIMIT_LEASE tokens at a time (default a tenth of a second's
 * worth, at most a tenth of the burst): see SharedBuckets for what that guarantees.
 */
function apiKeyLimits(): SharedBuckets {
  if (!shared.__apiKeyBuckets) {
    const perSecond = positiveEnv('RATE_LIMIT_PER_SECOND', 1000);
    const burst = positiveEnv('RATE_LIMIT_BURST', 2000);
    const lease = Math.floor(positiveEnv('RATE_LIMIT_LEASE', Math.max(1, Math.min(perSecond / 10, burst / 10))));
    shared.__apiKeyBuckets = new SharedBuckets('api', { perSecond, burst, lease: Math.max(1, lease) });
  }
  return shared.__apiKeyBuckets;
}

/** RATE_LIMIT_STORE=memory: each instance counts alone (one instance only; kept to measure what sharing costs). */
function memoryApiKeyLimits(): TokenBuckets {
  shared.__apiKeyMemoryBuckets ??= new TokenBuckets(apiKeyLimits().opts);
  return shared.__apiKeyMemoryBuckets;
}

/**
 * Rejects with 429 when the presented key has spent its bucket. Most requests
 * are counted from this instance's lease without a query, and a key over the
 * limit is refused from memory until its bucket refills; its answer is held
 * back RATE_LIMIT_HOLD_MS (default 1000, never past Retry-After), so a client
 * that ignores Retry-After and loops on its answers slows itself down instead
 * of taking the process's time from other businesses. Without a bearer token of
 * an API key's shape the request falls through to the 401.
 */
export async function limitApiKey(db: Db, authorization: string | null): Promise<void> {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (!token || !API_KEY_SHAPE.test(token)) return;
  const key = sha256Hex(token);
  const taken = process.env.RATE_LIMIT_STORE === 'memory' ? memoryApiKeyLimits().take(key) : await apiKeyLimits().take(db, key);
  if (taken.ok) return;
  // Jittered, so a client's parallel loops that were refused together do not come back together as a burst.
  const holdMs = Math.min(positiveEnv('RATE_LIMIT_HOLD_MS', 1000) * (0.5 + Math.random()), taken.retryAfterSeconds * 1000);
  await new Promise((r) => setTimeout(r, holdMs));
  throw new RateLimitedError(
    taken.retryAfterSeconds,
    `This API key is over its limit of ${apiKeyLimits().opts.perSecond} requests per second; retry after ${taken.retryAfterSeconds} s.`,
  );
}

/**
 * Back office token attempts per client address, fleet-wide (ADMIN_TOKEN_ATTEMPTS_PER_MINUTE, default 10).
 * An attempt is taken from the address's bucket before its token is compared, so no burst of concurrent
 * guesses is compared past the limit; an address that has spent them is refused (429), right token or wrong.
 * The right token gives its attempt back (adminTokenMatched): only wrong tokens count.
 */
export async function takeAdminTokenAttempt(db: Db, address: string): Promise<void> {
  const taken = await adminTokenFailures().take(db, address);
  if (!taken.ok)
    throw new RateLimitedError(taken.retryAfterSeconds, `Too many wrong back office tokens from this address; retry after ${taken.retryAfterSeconds} s.`);
}

export async function adminTokenMatched(db: Db, address: string): Promise<void> {
  await adminTokenFailures().giveBack(db, address);
}

function adminTokenFailures(): SharedBuckets {
  if (!shared.__adminTokenBuckets) {
    const perMinute = positiveEnv('ADMIN_TOKEN_ATTEMPTS_PER_MINUTE', 10);
    shared.__adminTokenBuckets = new SharedBuckets('admin', { perSecond: perMinute / 60, burst: perMinute, lease: 1 });
  }
  return shared.__adminTokenBuckets;
}
