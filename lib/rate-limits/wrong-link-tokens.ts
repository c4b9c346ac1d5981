import { positiveEnv } from '../config';
import { TokenBuckets } from './token-buckets';

/** Retry-After never says more than this: a person who mistyped a link waits at most a minute. */
const MAX_RETRY_AFTER_SECONDS = 60;

const shared = globalThis as unknown as { __wrongLinkTokens?: TokenBuckets };

/**
 * Wrong card links per client address (CARD_LINK_MISSES_PER_MINUTE, default 20, then that many a minute): each
 * wrong token costs the page a lookup, so past the limit the address is refused before any. Every card-page request
 * takes a token before its lookup and the page gives it back when the link opens a card: looking first and counting
 * after let a burst of requests arriving together all pass on one refilled token. In this process's memory, on
 * globalThis: proxy.ts takes and the page gives back, and Next.js bundles each apart.
 */
function wrongLinkTokens(): TokenBuckets {
  const perMinute = positiveEnv('CARD_LINK_MISSES_PER_MINUTE', 20);
  shared.__wrongLinkTokens ??= new TokenBuckets({ perSecond: Math.max(perMinute, 1) / 60, burst: perMinute });
  return shared.__wrongLinkTokens;
}

/** Takes a card-link lookup from the address: null when allowed, else the seconds Retry-After says (1 to 60). */
export function takeCardLinkLookup(address: string): number | null {
  const verdict = wrongLinkTokens().take(address);
  return verdict.ok ? null : Math.min(MAX_RETRY_AFTER_SECONDS, verdict.retryAfterSeconds);
}

/** The link opened a card: its lookup does not count against the address. */
export function returnCardLinkLookup(address: string): void {
  wrongLinkTokens().giveBack(address);
}
