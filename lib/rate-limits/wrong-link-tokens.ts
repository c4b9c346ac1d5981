import { positiveEnv } from '../config';
import { TokenBuckets } from './token-buckets';

/** Retry-After never says more than this: a person who mistyped a link waits at most a minute. */
const MAX_RETRY_AFTER_SECONDS = 60;

const shared = globalThis as unknown as { __wrongLinkTokens?: TokenBuckets };

/**
 * Wrong card links per client address (CARD_LINK_MISSES_PER_MINUTE, default 20, then that many a minute): each
 * wrong token costs the page a lookup, so past the limit the address is refused before any. In this process's
 * memory, on globalThis: proxy.ts refuses and the page counts, and Next.js bundles each apart.
 */
export function wrongLinkTokens(): TokenBuckets {
  const perMinute = positiveEnv('CARD_LINK_MISSES_PER_MINUTE', 20);
  shared.__wrongLinkTokens ??= new TokenBuckets({ perSecond: Math.max(perMinute, 1) / 60, burst: perMinute });
  return shared.__wrongLinkTokens;
}

/** Seconds an address refused for wrong links should wait, as Retry-After says it: 1 to 60. */
export function wrongLinkRetryAfter(address: string): number | null {
  const verdict = wrongLinkTokens().peek(address);
  return verdict.ok ? null : Math.min(MAX_RETRY_AFTER_SECONDS, verdict.retryAfterSeconds);
}
