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
import { startRefundRequests } from './refunds/send-refunds';
import { startUploadRunner } from './uploads/run-uploads';
import { startCardholderMessages } from './messages/send-messages';
import { startExpiryReminders } from './messages/expiry-reminders';
import { startDeliveryWorker } from './webhooks/delivery-worker';
import { PROVIDER_TASKS } from './wire-providers';
import { startLiveStreamHeartbeat } from './webhooks/live-stream-limits';

type BackgroundTask = (db: Db) => Stop;

/** A card that expires fails the approvals still waiting on it (a workflow step the card use case is handed). */
export const startCardExpiryFailingApprovals: BackgroundTask = (db) => startCardExpiry(db, failApprovalOfExpiredCard);

/**
 * Loops that run beside the web server (sandbox settlement, webhook delivery,
 * pruning of expired Idempotency-Key answers, folding new payouts and payments
 * into the list totals).
 * Each feature adds its starter to this list, under the name BACKGROUND_TASKS knows it by.
 * 'rail-requests' and 'refund-requests' are the workers of the job queue's `rail_request`
 * and `refund` kinds (lib/jobs/), 'cardholder-messages' of `cardholder_message`; a new kind of job adds its worker here the same way.
 */
const TASKS: Record<string, BackgroundTask> = {
  'payment-settlement': startPaymentSettlement,
  'payout-settlement': startPayoutSettlement,
  'webhook-delivery': startDeliveryWorker,
  'idempotency-pruning': startIdempotencyPruning,
  'history-totals': startHistoryTotalsFolding,
  'live-verification': startLiveVerification,
  ...PROVIDER_TASKS,
  'refund-requests': startRefundRequests,
  'approval-expiry': startApprovalExpiry,
  'shared-bucket-pruning': startSharedBucketPruning,
  'sign-in-failure-pruning': startSignInFailurePruning,
  'live-stream-heartbeat': startLiveStreamHeartbeat,
  'upload-runner': startUploadRunner,
  'hold-expiry': startHoldExpiry,
  'card-expiry': startCardExpiryFailingApprovals,
  'cardholder-messages': startCardholderMessages,
  'expiry-reminders': startExpiryReminders,
};

/**
 * BACKGROUND_TASKS (a comma-separated list of the names above, or `none`) runs only those: the test suites
 * start dozens of extra servers that each need one or two loops. Unset, every loop runs, as production must.
 */
export function selectedTasks(raw = process.env.BACKGROUND_TASKS): BackgroundTask[] {
  if (raw === undefined || raw.trim() === '') return Object.values(TASKS);
  const names = raw
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n && n !== 'none');
  const unknown = names.filter((n) => !(n in TASKS));
  if (unknown.length > 0) throw new Error(`BACKGROUND_TASKS names no loop called ${unknown.join(', ')}; known: ${Object.keys(TASKS).join(', ')}`);
  return names.map((n) => TASKS[n]);
}

export function startBackgroundWork(db: Db): Stop {
  const stops = selectedTasks().map((start) => start(db));
  instanceState.workersRunning = true;
  return async () => {
    instanceState.workersRunning = false;
    await Promise.all(stops.map((s) => s()));
  };
}
