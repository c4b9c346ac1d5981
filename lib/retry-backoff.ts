import { type SQL, sql } from 'drizzle-orm';

const read = (raw: string | undefined, fallback: number) => {
  const n = Number(raw);
  return raw && Number.isFinite(n) && n > 0 ? n : fallback;
};

/**
 * The one backoff of work retried after a commit (provider requests, refunds):
 * the first retry within a minute, doubling to at most ten minutes.
 * CHAPA_RETRY_BASE_MS and CHAPA_RETRY_MAX_MS shorten it for tests.
 */
export function retryDelayMs(tries: number, env: Record<string, string | undefined> = process.env): number {
  const base = read(env.CHAPA_RETRY_BASE_MS, 30_000);
  const max = read(env.CHAPA_RETRY_MAX_MS, 600_000);
  return Math.min(max, base * 2 ** Math.max(0, Math.min(tries, 20) - 1));
}

/**
 * When a row claimed for its next try may be claimed again: after the backoff
 * for the tries it has had (capped as retryDelayMs is), and never before
 * `leaseMs`, the longest a pass over it may take.
 */
export function nextAttemptSql(attempts: SQL, leaseMs: number): SQL {
  const base = retryDelayMs(1);
  const max = retryDelayMs(Number.MAX_SAFE_INTEGER);
  return sql`now() + make_interval(secs => greatest(${leaseMs}, least(${max}, ${base} * power(2, least(${attempts}, 20)))) / 1000.0)`;
}
