import { startIdempotencyPruning } from './api/prune-idempotency-keys';
import type { Db } from './db/client';
import { startSettlementWorker } from './payouts/settlement-worker';
import { startPaymentSettlement } from './payments/settlement-worker';
import { startDeliveryWorker } from './webhooks/delivery-worker';

export type Stop = () => Promise<void>;
export type BackgroundTask = (db: Db) => Stop;

/**
 * Loops that run beside the web server (sandbox settlement, webhook delivery,
 * pruning of expired Idempotency-Key answers).
 * Each feature adds its starter to this list.
 */
const TASKS: BackgroundTask[] = [startPaymentSettlement, startSettlementWorker, startDeliveryWorker, startIdempotencyPruning];

export function startBackgroundWork(db: Db): Stop {
  const stops = TASKS.map((start) => start(db));
  return async () => {
    await Promise.all(stops.map((s) => s()));
  };
}
