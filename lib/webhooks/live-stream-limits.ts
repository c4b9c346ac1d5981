import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { positiveEnv } from '../config';
import { RateLimitedError } from '../rate-limits/token-buckets';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db } from '../db/client';
import { logger } from '../observability/logger';
import { metrics } from '../observability/metrics';

/** A dashboard tab holds one live stream; a person rarely has more tabs open than this. */
const MAX_STREAMS_PER_SESSION = positiveEnv('LIVE_STREAMS_PER_SESSION', 16);
/** An office behind one address may hold many people's tabs. */
const MAX_STREAMS_PER_ADDRESS = positiveEnv('LIVE_STREAMS_PER_ADDRESS', 64);

/** A stream's row outlives its instance by at most this long: a crashed instance's streams stop counting then. */
const STREAM_TTL_SECONDS = 60;
const HEARTBEAT_MS = 20_000;

/**
 * Open live streams counted per sign-in session and per client address, across
 * every instance: each holds a connection, a listener and buffers (about 140 KB),
 * so one session could otherwise open them until the servers ran out of memory.
 * Each open stream is a row in live_streams, deleted when it closes and kept
 * alive by its instance's heartbeat (startLiveStreamHeartbeat).
 */
class LiveStreamLimits {
  /** This instance's open streams. */
  readonly mine = new Set<string>();

  constructor(
    private readonly perSession = MAX_STREAMS_PER_SESSION,
    private readonly perAddress = MAX_STREAMS_PER_ADDRESS,
  ) {}

  /** Takes a slot for this session and address: its release (which may be called more than once), or why not. */
  async take(db: Db, sessionKey: string, clientAddress: string): Promise<{ release: () => void } | { refused: string }> {
    const id = randomUUID();
    // Keyed by the caps too: instances configured differently do not count against each other.
    const session = `${this.perSession}:${sessionKey}`;
    const address = `${this.perAddress}:${clientAddress}`;
    const refused = await db.transaction(async (tx) => {
      // Takes for one session, and for one address, wait for each other on every instance: no race passes a cap.
      await tx.execute(sql`SELECT pg_advisory_xact_lock(7301, hashtext(${session})), pg_advisory_xact_lock(7302, hashtext(${address}))`);
      const { rows } = await tx.execute<{ by_session: number; by_address: number }>(sql`
        SELECT count(*) FILTER (WHERE session_key = ${session}) AS by_session, count(*) FILTER (WHERE address = ${address}) AS by_address
        FROM live_streams WHERE (session_key = ${session} OR address = ${address}) AND expires_at > now()`);
      if (Number(rows[0].by_session) >= this.perSession) return `This session already has ${this.perSession} live views open; close some tabs.`;
      if (Number(rows[0].by_address) >= this.perAddress) return `Your address already has ${this.perAddress} live views open; close some tabs.`;
      await tx.execute(sql`
        INSERT INTO live_streams (id, session_key, address, expires_at) VALUES (${id}, ${session}, ${address}, now() + ${STREAM_TTL_SECONDS} * interval '1 second')`);
      return undefined;
    });
    if (refused) return { refused };
    this.mine.add(id);
    metrics()?.liveStreams.inc();
    return {
      release: () => {
        if (!this.mine.delete(id)) return;
        metrics()?.liveStreams.dec();
        db.execute(sql`DELETE FROM live_streams WHERE id = ${id}`).catch((err) => logger.error({ err }, 'live stream release failed'));
      },
    };
  }

  /** Keeps this instance's streams counted, and forgets those of instances that stopped beating. */
  async beat(db: Db): Promise<boolean> {
    if (this.mine.size > 0) {
      await db.execute(sql`
        UPDATE live_streams SET expires_at = now() + ${STREAM_TTL_SECONDS} * interval '1 second' WHERE id = ANY(${sql.param([...this.mine])}::uuid[])`);
    }
    await db.execute(sql`DELETE FROM live_streams WHERE expires_at < now()`);
    return false;
  }
}

const globalForLimits = globalThis as unknown as { __liveStreamLimits?: LiveStreamLimits };
globalForLimits.__liveStreamLimits ??= new LiveStreamLimits();
/** The process's one set of counts (on globalThis: each route is bundled apart, and scripts/start.ts's heartbeat reads it too). */
const liveStreamLimits = globalForLimits.__liveStreamLimits;

/**
 * Takes a live stream's slot for this session and address, or throws 429; answers its release.
 * The error is made here, in the caller's copy of the module: the shared counts may come from another bundle.
 */
export async function takeLiveStream(db: Db, session: string, address: string): Promise<() => void> {
  const taken = await liveStreamLimits.take(db, session, address);
  if ('refused' in taken) throw new RateLimitedError(5, taken.refused);
  return taken.release;
}

export const startLiveStreamHeartbeat = (db: Db): Stop => backgroundLoop('live stream heartbeat', HEARTBEAT_MS, () => liveStreamLimits.beat(db));

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
