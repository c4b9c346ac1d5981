import { createHash } from 'node:crypto';
import { RateLimitedError, positiveEnv } from '../api/rate-limit';
import { metrics } from '../observability/metrics';

/** A dashboard tab holds one live stream; a person rarely has more tabs open than this. */
const MAX_STREAMS_PER_SESSION = positiveEnv('LIVE_STREAMS_PER_SESSION', 16);
/** An office behind one address may hold many people's tabs. */
const MAX_STREAMS_PER_ADDRESS = positiveEnv('LIVE_STREAMS_PER_ADDRESS', 64);

/**
 * Open live streams counted per sign-in session and per client address, in this
 * process's memory: each holds a connection, a listener and buffers (about 140 KB),
 * so one session could otherwise open them until the server ran out of memory.
 */
class LiveStreamLimits {
  private readonly open = new Map<string, number>();

  constructor(
    private readonly perSession = MAX_STREAMS_PER_SESSION,
    private readonly perAddress = MAX_STREAMS_PER_ADDRESS,
  ) {}

  /** Takes a slot for this session and address, or throws 429; answers its release, which may be called more than once. */
  take(session: string, address: string): () => void {
    const keys = [`s:${session}`, `a:${address}`];
    if ((this.open.get(keys[0]) ?? 0) >= this.perSession) {
      throw new RateLimitedError(5, `This session already has ${this.perSession} live views open; close some tabs.`);
    }
    if ((this.open.get(keys[1]) ?? 0) >= this.perAddress) {
      throw new RateLimitedError(5, `Your address already has ${this.perAddress} live views open; close some tabs.`);
    }
    for (const k of keys) this.open.set(k, (this.open.get(k) ?? 0) + 1);
    metrics()?.liveStreams.inc();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      metrics()?.liveStreams.dec();
      for (const k of keys) {
        const left = (this.open.get(k) ?? 1) - 1;
        if (left > 0) this.open.set(k, left);
        else this.open.delete(k);
      }
    };
  }
}

const globalForLimits = globalThis as unknown as { __liveStreamLimits?: LiveStreamLimits };
globalForLimits.__liveStreamLimits ??= new LiveStreamLimits();
/** The process's one set of counts (on globalThis: each route is bundled apart). */
export const liveStreamLimits = globalForLimits.__liveStreamLimits;

/** One sign-in session: the user and a hash of their session cookie (two browsers of one user are two sessions). */
export function liveSessionKey(cookieHeader: string | null, userId: number): string {
  // The first cookie of each name is the one the session is read from: repeating a cookie must not make a new session.
  const first = new Map<string, string>();
  for (const c of (cookieHeader ?? '').split(';').map((part) => part.trim())) {
    const name = /^((?:__Secure-)?next-auth\.session-token(?:\.\d+)?)=/.exec(c)?.[1];
    if (name && !first.has(name)) first.set(name, c);
  }
  const tokens = [...first.keys()]
    .sort()
    .map((name) => first.get(name))
    .join(';');
  return `${userId}:${createHash('sha256').update(tokens).digest('base64url').slice(0, 22)}`;
}
