import client, { type Counter, type Gauge, type Histogram, type Registry } from 'prom-client';
import type pg from 'pg';
import { ServiceError } from '../errors';

interface Metrics {
  registry: Registry;
  requestSeconds: Histogram<'route' | 'method' | 'status'>;
  payouts: Counter<'type' | 'mode' | 'outcome'>;
  payments: Counter<'type' | 'mode' | 'outcome'>;
  deliveries: Counter<'outcome'>;
  deliveryLagSeconds: Histogram;
  outboxDepth: Gauge;
  outboxOldestSeconds: Gauge;
  foldLagSeconds: Gauge<'list'>;
  jobsDead: Gauge<'kind'>;
  liveStreams: Gauge;
  poolAcquired: Counter<'pool'>;
  pools: Map<string, pg.Pool>;
}

function createMetrics(): Metrics {
  const registry = new client.Registry();
  // Event loop lag (nodejs_eventloop_lag_seconds and its percentiles), heap, GC and the process's CPU and memory.
  client.collectDefaultMetrics({ register: registry });
  const pools = new Map<string, pg.Pool>();
  const poolGauge = (name: string, help: string, read: (p: pg.Pool) => number) =>
    new client.Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        for (const [pool, p] of pools) this.set({ pool }, read(p));
      },
    });
  poolGauge('giftcard_db_pool_in_use', 'Database connections checked out of the pool', (p) => p.totalCount - p.idleCount);
  poolGauge('giftcard_db_pool_waiting', 'Callers waiting for a database connection', (p) => p.waitingCount);
  const seconds = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
  return {
    registry,
    pools,
    requestSeconds: new client.Histogram({
      name: 'giftcard_http_request_duration_seconds',
      help: 'HTTP requests by route pattern, method and status',
      labelNames: ['route', 'method', 'status'],
      buckets: seconds,
      registers: [registry],
    }),
    payouts: new client.Counter({
      name: 'giftcard_payouts_total',
      help: 'Payouts asked for, by type, mode and outcome',
      labelNames: ['type', 'mode', 'outcome'],
      registers: [registry],
    }),
    payments: new client.Counter({
      name: 'giftcard_payments_total',
      help: 'Payments (top-ups) started, by type, mode and outcome',
      labelNames: ['type', 'mode', 'outcome'],
      registers: [registry],
    }),
    deliveries: new client.Counter({
      name: 'giftcard_webhook_deliveries_total',
      help: 'Webhook delivery attempts recorded, by outcome',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    deliveryLagSeconds: new client.Histogram({
      name: 'giftcard_webhook_delivery_lag_seconds',
      help: 'From the commit that wrote a webhook event to its delivery',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200],
      registers: [registry],
    }),
    outboxDepth: new client.Gauge({ name: 'giftcard_outbox_depth', help: 'Webhook deliveries waiting to be sent', registers: [registry] }),
    outboxOldestSeconds: new client.Gauge({
      name: 'giftcard_outbox_oldest_age_seconds',
      help: 'Age of the oldest webhook delivery waiting',
      registers: [registry],
    }),
    foldLagSeconds: new client.Gauge({
      name: 'giftcard_history_fold_lag_seconds',
      help: 'Age of the oldest row not yet folded into the list totals',
      labelNames: ['list'],
      registers: [registry],
    }),
    jobsDead: new client.Gauge({
      name: 'giftcard_jobs_dead',
      help: 'Jobs retried until they gave up (lib/jobs/), waiting for a person',
      labelNames: ['kind'],
      registers: [registry],
    }),
    liveStreams: new client.Gauge({ name: 'giftcard_live_streams_open', help: 'Open dashboard live-update streams in this instance', registers: [registry] }),
    // Each query outside a transaction, and each transaction, takes a connection once: what a page or a refusal costs the database.
    poolAcquired: new client.Counter({
      name: 'giftcard_db_pool_acquired_total',
      help: 'Database connections taken from the pool (one per query outside a transaction, one per transaction)',
      labelNames: ['pool'],
      registers: [registry],
    }),
  };
}

// One registry for the custom server and Next.js's bundle of this module. Nothing is recorded without
// METRICS_TOKEN: nobody could read it, so the hot path pays nothing.
const global = globalThis as unknown as { __giftcardMetrics?: Metrics | null };
if (global.__giftcardMetrics === undefined) global.__giftcardMetrics = process.env.METRICS_TOKEN ? createMetrics() : null;

export const metrics = (): Metrics | null => global.__giftcardMetrics ?? null;

/** A label for how a core call ended: the answer's status (none: it completed at once, as card to card does), or the error's code. */
const outcomeOf = (result: unknown, err?: unknown): string =>
  err === undefined
    ? String((result as { status?: unknown } | undefined)?.status ?? 'success').toLowerCase()
    : err instanceof ServiceError
      ? err.code
      : 'error';

/** Counts a payout or payment call by how it ended, and passes its answer or error on unchanged. */
export async function countedCall<T>(kind: 'payouts' | 'payments', labels: { type: string; mode: string }, call: () => Promise<T>): Promise<T> {
  const m = metrics();
  if (!m) return call();
  try {
    const result = await call();
    m[kind].inc({ ...labels, outcome: outcomeOf(result) });
    return result;
  } catch (err) {
    m[kind].inc({ ...labels, outcome: outcomeOf(undefined, err) });
    throw err;
  }
}

/** Makes a pool's connections in use and its waiting callers visible on /metrics. */
export function watchPool(name: string, pool: pg.Pool): void {
  const m = metrics();
  if (!m) return;
  m.pools.set(name, pool);
  pool.on('acquire', () => m.poolAcquired.inc({ pool: name }));
}
