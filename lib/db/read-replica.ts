import { sql } from 'drizzle-orm';
import { ServiceError } from '../errors';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { type Db, getDb, poolErrorLogger } from './client';
import { logger } from '../observability/logger';
import * as schema from './schema';

/** A page read from the replica says how old its data is once it lags more than this. */
export const AGE_NOTE_AFTER_MS = 2_000;

export interface ReadReplicaOptions {
  /** A replica further behind than this is not read from: the primary answers instead. */
  maxLagMs: number;
  /** How long one health check is trusted. */
  checkEveryMs: number;
  /** A check that takes longer counts the replica as down. */
  checkTimeoutMs: number;
}

export interface ReadOptions {
  /** Read the primary whatever the replica's state. */
  fresh?: boolean;
  /** When this user last wrote (epoch ms): the replica answers only once its data is newer. */
  wroteAt?: number;
}

/** Where a read went, and how old its data may be (0 on the primary). */
export interface ReadSource {
  db: Db;
  replica: boolean;
  lagMs: number;
}

interface Health {
  at: number;
  usable: boolean;
  /** The replica's data age at `at`; it grows with time unless it had caught up. */
  lagMs: number;
  caughtUp: boolean;
}

/** 'A1/3F00' as a number: an LSN is 64 bits, two hex halves. */
function lsnValue(lsn: string): bigint {
  const [hi, lo] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/**
 * Decides, for reads that may be a little old (reports, exports, search, list
 * pages), whether the replica or the primary answers. The replica's age is
 * measured against the primary's WAL position, never by its last replay
 * time alone (that grows on an idle primary while nothing is missing): the
 * primary's position is sampled on every check, and the data's age is the
 * time since the primary was where the replica has now replayed to (or, when
 * no check saw that position, since the last commit it replayed: an upper
 * bound, so a replica seen first while behind errs towards the primary).
 */
export class ReadReplica {
  private health: Health | undefined;
  private checking: Promise<Health> | undefined;
  /** The primary's WAL position at past checks, oldest first. */
  private samples: { at: number; lsn: bigint }[] = [];

  constructor(
    private readonly primary: Db,
    private readonly replica: Db,
    private readonly opts: ReadReplicaOptions,
  ) {}

  /**
   * The replica when it answers and is recent enough, else the primary. `fresh` always reads the primary;
   * `wroteAt` (when this user last wrote) reads the primary until the replica's data is newer than that write.
   */
  async source(opts: ReadOptions = {}): Promise<ReadSource> {
    const onPrimary = { db: this.primary, replica: false, lagMs: 0 };
    if (opts.fresh) return onPrimary;
    const health = await this.currentHealth();
    if (!health.usable) return onPrimary;
    const lagMs = health.caughtUp ? health.lagMs : health.lagMs + (Date.now() - health.at);
    if (opts.wroteAt !== undefined && lagMs >= Date.now() - opts.wroteAt) return onPrimary;
    return lagMs > this.opts.maxLagMs ? onPrimary : { db: this.replica, replica: true, lagMs };
  }

  /** Runs a read where source() says; a replica that fails mid-read is marked down and the primary answers. */
  async read<T>(read: (db: Db) => Promise<T>, opts: ReadOptions = {}): Promise<{ value: T; lagMs: number }> {
    const source = await this.source(opts);
    if (!source.replica) return { value: await read(source.db), lagMs: 0 };
    try {
      return { value: await read(source.db), lagMs: source.lagMs };
    } catch (err) {
      // A refusal of the read itself (bad search input) would be the same on the primary.
      if (err instanceof ServiceError) throw err;
      logger.warn({ err }, 'read replica failed, reading the primary');
      this.health = { at: Date.now(), usable: false, lagMs: 0, caughtUp: false };
      return { value: await read(this.primary), lagMs: 0 };
    }
  }

  private async currentHealth(): Promise<Health> {
    const known = this.health;
    if (known && Date.now() - known.at < this.opts.checkEveryMs) return known;
    this.checking ??= this.check().finally(() => {
      this.checking = undefined;
    });
    // Readers keep the last answer while a check runs; only the first waits.
    return known ?? this.checking;
  }

  private async check(): Promise<Health> {
    const at = Date.now();
    let health: Health;
    try {
      const primary = await this.withTimeout(
        this.primary.execute<{ lsn: string; now_ms: number }>(
          sql`SELECT pg_current_wal_lsn()::text AS lsn, (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms`,
        ),
      );
      const replayed = await this.withTimeout(
        this.replica.execute<{ lsn: string | null; replayed_ms: number | null }>(
          sql`SELECT pg_last_wal_replay_lsn()::text AS lsn, (extract(epoch FROM pg_last_xact_replay_timestamp()) * 1000)::float8 AS replayed_ms`,
        ),
      );
      const current = lsnValue(primary.rows[0].lsn);
      this.samples.push({ at, lsn: current });
      // A minute of samples: older data is far past any sensible limit.
      while (this.samples.length > 2 && at - this.samples[0].at > 60_000) this.samples.shift();
      const { lsn: replayLsn, replayed_ms: replayedMs } = replayed.rows[0];
      if (replayLsn === null) {
        health = { at, usable: false, lagMs: 0, caughtUp: false }; // not a standby (promoted, or misconfigured)
      } else {
        const position = lsnValue(replayLsn);
        const caughtUp = position >= current;
        // Behind, two bounds on the data's age, the tighter one wins: since the last check the primary was no further than
        // the replica is now, and since the last commit replayed (on the primary's clock; this one also holds after an idle spell, with no samples).
        const sampled = [...this.samples].reverse().find((s) => s.lsn <= position);
        const bySample = sampled ? at - sampled.at : Number.POSITIVE_INFINITY;
        const byCommit = replayedMs === null ? Number.POSITIVE_INFINITY : Math.max(0, primary.rows[0].now_ms - replayedMs);
        health = { at, usable: true, caughtUp, lagMs: caughtUp ? 0 : Math.min(bySample, byCommit) };
      }
    } catch {
      health = { at, usable: false, lagMs: 0, caughtUp: false };
    }
    this.health = health;
    return health;
  }

  private withTimeout<T>(query: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('read replica check timed out')), this.opts.checkTimeoutMs);
    });
    return Promise.race([query, timeout]).finally(() => clearTimeout(timer));
  }
}

/** The settings of DATABASE_READ_URL's replica: READ_REPLICA_MAX_LAG_MS (default 30 s). */
function readReplicaOptions(env: NodeJS.ProcessEnv = process.env): ReadReplicaOptions {
  const maxLag = Number(env.READ_REPLICA_MAX_LAG_MS);
  return { maxLagMs: Number.isFinite(maxLag) && maxLag >= 0 ? maxLag : 30_000, checkEveryMs: 1_000, checkTimeoutMs: 1_000 };
}

/** A replica whose host stops answering must not hold a page: connecting gives up after 2 s and read() falls back. */
function replicaPool(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DB_POOL_SIZE ?? 20), idleTimeoutMillis: 30_000, connectionTimeoutMillis: 2_000 });
  pool.on('error', poolErrorLogger('read replica pool error', 'warn'));
  return drizzle(pool, { schema });
}

const globalForReplica = globalThis as unknown as { __giftcardReadReplica?: ReadReplica | null };

function appReplica(): ReadReplica | null {
  if (globalForReplica.__giftcardReadReplica === undefined) {
    const url = process.env.DATABASE_READ_URL;
    globalForReplica.__giftcardReadReplica = url ? new ReadReplica(getDb(), replicaPool(url), readReplicaOptions()) : null;
  }
  return globalForReplica.__giftcardReadReplica;
}

/** Whether DATABASE_READ_URL names a replica (the dashboard then remembers each user's last write). */
export const readReplicaConfigured = () => Boolean(process.env.DATABASE_READ_URL);

/**
 * The one place the app picks the pool for a read that may be a little old.
 * Never for money checks, writes, idempotency or sign-in: those use getDb().
 */
export async function readSource(opts: ReadOptions = {}): Promise<ReadSource> {
  return (await appReplica()?.source(opts)) ?? { db: getDb(), replica: false, lagMs: 0 };
}

/** Runs a read on readSource()'s pool, falling back to the primary if the replica fails mid-read. */
export async function readFromReplica<T>(read: (db: Db) => Promise<T>, opts: ReadOptions = {}): Promise<{ value: T; lagMs: number }> {
  const replica = appReplica();
  return replica ? replica.read(read, opts) : { value: await read(getDb()), lagMs: 0 };
}
