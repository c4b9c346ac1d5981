import { failApprovalOfExpiredCard, startApprovalExpiry } from './approvals/expire-approvals';
import { startIdempotencyPruning } from './api/prune-idempotency-keys';
import type { Stop } from './background-loop';
import { startSharedBucketPruning } from './rate-limits/shared-buckets';
import { startSignInFailurePruning } from './auth/sign-in-limits';
import { startCardExpiry } from './cards/expire-cards';
import type { Db } from './db/client';
import { instanceState } from './lifecycle/instance-state';
import { startHistoryTotalsFolding } from './dashboard/history-totals-fold';
import { startHoldExpiry } from './holds/expire-holds';
import { startPayoutSettlement } from './payouts/settlement-worker';
import { startPaymentSettlement } from './payments/settlement-worker';
import { startLiveVerification } from './payments/verify-live-payment';
import { startRailRequests } from './rails/chapa/rail-requests';
import { startRefundRequests } from './refunds/send-refunds';
import { startUploadExpiry } from './uploads/expire-uploads';
import { startUploadRunner } from './uploads/run-uploads';
import { startDeliveryWorker } from './webhooks/delivery-worker';
import { startLiveStreamHeartbeat } from './webhooks/live-stream-limits';

type BackgroundTask = (db: Db) => Stop;

/**
 * Loops that run beside the web server (sandbox settlement, webhook delivery,
 * pruning of expired Idempotency-Key answers, folding new payouts and payments
 * into the list totals).
 * Each feature adds its starter to this list.
 */
const TASKS: BackgroundTask[] = [
  startPaymentSettlement,
  startPayoutSettlement,
  startDeliveryWorker,
  startIdempotencyPruning,
  startHistoryTotalsFolding,
  startLiveVerification,
  startRailRequests,
  startRefundRequests,
  startApprovalExpiry,
  startSharedBucketPruning,
  startSignInFailurePruning,
  startLiveStreamHeartbeat,
  startUploadRunner,
  startUploadExpiry,
  startHoldExpiry,
  (db) => startCardExpiry(db, failApprovalOfExpiredCard),
];

export function startBackgroundWork(db: Db): Stop {
  const stops = TASKS.map((start) => start(db));
  instanceState.workersRunning = true;
  return async () => {
    instanceState.workersRunning = false;
    await Promise.all(stops.map((s) => s()));
  };
}
