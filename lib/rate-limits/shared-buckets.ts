import { sql } from 'drizzle-orm';
import { backgroundLoop, type Stop } from '../background-loop';
import type { Db } from '../db/client';
import type { TakeResult, TokenBucketOptions } from './token-buckets';

export interface SharedBucketOptions extends TokenBucketOptions {
  /** Most tokens this instance takes at once and spends from memory (1: every take asks PostgreSQL). */
  lease: number;
}

/** Leased tokens unspent after this long are dropped, so a quiet instance does not sit on them. */
const LEASE_MS = 1_000;
const SWEEP_ABOVE = 10_000;

interface Lease {
  tokens: number;
  until: number;
  /** The shared bucket was empty: refuse here, without asking, until it holds a token again. */
  refusedUntil: number;
}

/**
 * Takes up to `want` tokens from the shared bucket `key` in one statement, after
 * refilling it for the time since it was last touched (PostgreSQL's clock, one for
 * every instance). Answers how many it took and what is left.
 */
async function takeFromSharedBucket(db: Db, key: string, opts: TokenBucketOptions, want: number): Promise<{ taken: number; tokens: number }> {
  const { perSecond: rate, burst } = opts;
  const level = sql`least(${burst}::float8, b.tokens + greatest(0, extract(epoch FROM now() - b.refilled_at))::float8 * ${rate}::float8)`;
  const { rows } = await db.execute<{ taken: number; tokens: number }>(sql`
    INSERT INTO rate_limit_buckets AS b (key, tokens, taken, refilled_at)
    VALUES (${key}, ${burst}::float8 - least(${want}::int, floor(${burst}::float8))::int, least(${want}::int, floor(${burst}::float8))::int, now())
    ON CONFLICT (key) DO UPDATE SET
      taken = least(${want}::int, floor(${level}))::int,
      tokens = ${level} - least(${want}::int, floor(${level})),
      refilled_at = greatest(b.refilled_at, now())
    RETURNING taken, tokens`);
  return { taken: Number(rows[0].taken), tokens: Number(rows[0].tokens) };
}

/** The tokens a shared bucket holds now, without taking any (a bucket never used is full). */
async function peekSharedBucket(db: Db, key: string, opts: TokenBucketOptions): Promise<number> {
  const { rows } = await db.execute<{ tokens: number }>(sql`
    SELECT least(${opts.burst}::float8, tokens + extract(epoch FROM now() - refilled_at)::float8 * ${opts.perSecond}::float8) AS tokens
    FROM rate_limit_buckets WHERE key = ${key}`);
  return rows.length === 0 ? opts.burst : Number(rows[0].tokens);
}

/**
 * A token bucket per key that every app instance shares through PostgreSQL.
 * Each instance leases up to `lease` tokens at a time and spends them from
 * memory, so most requests cost no query; concurrent takes of one key wait for
 * one refill between them. Every token admitted was taken from the shared
 * bucket once, so the fleet never admits more than one bucket allows (burst, then
 * perSecond); leased tokens an instance does not spend within LEASE_MS are
 * dropped, so the fleet may refuse up to (instances x lease) tokens early, never
 * admit one too many. After an empty answer the instance refuses that key from
 * memory until the bucket would hold a token again.
 */
export class SharedBuckets {
  private readonly leases = new Map<string, Lease>();
  private readonly refills = new Map<string, Promise<void>>();

  constructor(
    readonly name: string,
    readonly opts: SharedBucketOptions,
  ) {}

  async take(db: Db, key: string): Promise<TakeResult> {
    for (;;) {
      const now = Date.now();
      const lease = this.leases.get(key);
      if (lease && lease.refusedUntil > now) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((lease.refusedUntil - now) / 1000)) };
      if (lease && lease.tokens >= 1 && lease.until > now) {
        lease.tokens -= 1;
        return { ok: true };
      }
      await (this.refills.get(key) ?? this.refill(db, key));
    }
  }

  private refill(db: Db, key: string): Promise<void> {
    const done = (async () => {
      // The bucket's key names its limits: instances configured differently do not share one.
      const { taken, tokens } = await takeFromSharedBucket(db, this.sharedKey(key), this.opts, this.opts.lease);
      const now = Date.now();
      if (!this.leases.has(key) && this.leases.size >= SWEEP_ABOVE) this.sweep(now);
      this.leases.set(
        key,
        taken > 0
          ? { tokens: taken, until: now + LEASE_MS, refusedUntil: 0 }
          : { tokens: 0, until: 0, refusedUntil: now + Math.ceil(((1 - tokens) / this.opts.perSecond) * 1000) },
      );
    })();
    this.refills.set(key, done);
    return done.finally(() => this.refills.delete(key));
  }

  /** The tokens the shared bucket holds now, for a check that spends nothing. */
  async peek(db: Db, key: string): Promise<TakeResult> {
    const refused = this.leases.get(key)?.refusedUntil ?? 0;
    const now = Date.now();
    if (refused > now) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((refused - now) / 1000)) };
    const tokens = await peekSharedBucket(db, this.sharedKey(key), this.opts);
    return tokens >= 1 ? { ok: true } : { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / this.opts.perSecond)) };
  }

  /**
   * Gives one token taken by take() back to the shared bucket (an attempt that turned out not to count:
   * the right back office token). Only for buckets with a lease of 1, whose every take reached PostgreSQL.
   */
  async giveBack(db: Db, key: string): Promise<void> {
    await db.execute(sql`UPDATE rate_limit_buckets SET tokens = tokens + 1 WHERE key = ${this.sharedKey(key)}`);
  }

  /** name:perSecond:burst:key; pruneSharedBuckets reads the limits back from it. */
  private sharedKey(key: string): string {
    return `${this.name}:${this.opts.perSecond}:${this.opts.burst}:${key}`;
  }

  private sweep(now: number): void {
    for (const [k, l] of this.leases) if (l.until <= now && l.refusedUntil <= now) this.leases.delete(k);
  }
}

/**
 * A bucket that has refilled completely holds no information: removed, a
 * bounded batch per pass (its rate and burst are read back from its key), so
 * tokens made up by a client leave no rows behind.
 */
async function pruneSharedBuckets(db: Db): Promise<boolean> {
  const { rowCount } = await db.execute(sql`
    DELETE FROM rate_limit_buckets WHERE key IN (
      SELECT key FROM rate_limit_buckets
      WHERE refilled_at < now() - interval '1 second'
        AND tokens + extract(epoch FROM now() - refilled_at)::float8 * split_part(key, ':', 2)::float8 >= split_part(key, ':', 3)::float8
      LIMIT 5000)
      -- Again on the row itself: a take between the list and the delete keeps its bucket.
      AND tokens + extract(epoch FROM now() - refilled_at)::float8 * split_part(key, ':', 2)::float8 >= split_part(key, ':', 3)::float8`);
  return (rowCount ?? 0) === 5000;
}

export const startSharedBucketPruning = (db: Db): Stop => backgroundLoop('rate limit pruning', 10_000, () => pruneSharedBuckets(db));
