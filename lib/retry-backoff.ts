import { type SQL, sql } from 'drizzle-orm';

const read = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return raw && Number.isFinite(n) && n > 0 ? n : fallback;
};

/**
 * The one backoff of work retried after a commit (lib/jobs/: provider requests, refunds):
 * the first retry within a minute, doubling to at most ten minutes.
 * CHAPA_RETRY_BASE_MS and CHAPA_RETRY_MAX_MS shorten it for tests.
 */
export function retryDelayMs(tries: number, env: Record<string, string | undefined> = process.env): number {
  const base = read(env.CHAPA_RETRY_BASE_MS, 30_000);
  const max = read(env.CHAPA_RETRY_MAX_MS, 600_000);
  return Math.min(max, base * 2 ** Math.max(0, Math.min(tries, 20) - 1));
}

/**
 * The wait after the `tries`-th failed try: on a schedule when one is given
 * (webhook deliveries follow CONTRACT.md's), its last step repeating; else
 * retryDelayMs's doubling, capped.
 */
export function backoffMs(tries: number, schedule?: readonly number[]): number {
  if (!schedule || schedule.length === 0) return retryDelayMs(tries);
  return schedule[Math.min(Math.max(tries, 1), schedule.length) - 1];
}

/** retryDelayMs in SQL, as an interval, for a row's own count of tries. */
export function backoffSql(tries: SQL): SQL {
  const base = retryDelayMs(1);
  const max = retryDelayMs(Number.MAX_SAFE_INTEGER);
  return sql`make_interval(secs => least(${max}, ${base} * power(2, greatest(least(${tries}, 20), 1) - 1)) / 1000.0)`;
}

/**
 * The one lease: when a claim taken now lapses. It must outlive the longest
 * pass over what was claimed; past it the holder is taken for crashed and
 * another worker may claim the work again.
 */
export function leaseUntilSql(leaseMs: number): SQL {
  return sql`now() + ${leaseMs} * interval '1 millisecond'`;
}
