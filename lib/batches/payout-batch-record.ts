import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { payouts } from '../db/schema';
import { ERRORS, ServiceError, type ErrorCode, type FieldErrors } from '../errors';
import type { WrittenPayout } from '../payouts/create-payout';
import { firstPayoutAnswer } from '../payouts/payout-answer';
import { railRefusal, type answerWritten } from '../payouts/payout-destinations';
import type { Mode } from '../validation';
import type { BatchResult } from './batch-result';

/** What a payout batch answers for an item it made: the single call's answer. */
export type PayoutAnswer = Awaited<ReturnType<typeof answerWritten>>;

/** What a committed transaction of a payout batch recorded for one item: the payout it made, or the refusal it got. */
export type RecordedItem = { payoutId: number } | { error: ServiceError };

/**
 * The outcomes of a chunk's items, keyed by their place in the batch, as the chunk's own transaction records
 * them with the Idempotency-Key (CommittedPart): a crash at any point leaves every committed item recorded.
 */
export function chunkRecord(start: number, out: BatchResult<WrittenPayout>[]): Record<string, unknown> {
  return Object.fromEntries(out.map((w, k) => [String(start + k), w.ok ? { payout_id: w.value.payout.id } : { code: w.error.code, detail: w.error.detail }]));
}

/**
 * The items a dead run of a batch committed, in order (chunks commit in order, so they are always the
 * first ones), or undefined when `committed` is not such a record (a run of an older version).
 */
export function recordedItems(committed: unknown): RecordedItem[] | undefined {
  if (typeof committed !== 'object' || committed === null || Array.isArray(committed)) return undefined;
  const record = committed as Record<string, { payout_id?: unknown; code?: unknown; detail?: unknown }>;
  const items: RecordedItem[] = [];
  for (let i = 0; i < Object.keys(record).length; i++) {
    const r = record[String(i)];
    if (typeof r !== 'object' || r === null) return undefined;
    if (Number.isSafeInteger(r.payout_id) && (r.payout_id as number) > 0) items.push({ payoutId: r.payout_id as number });
    else if (typeof r.code === 'string' && Object.hasOwn(ERRORS, r.code) && (typeof r.detail === 'string' || typeof r.detail === 'object'))
      items.push({ error: new ServiceError(r.code as ErrorCode, r.detail as string | FieldErrors) });
    else return undefined;
  }
  return items;
}

/**
 * The recorded items answered as the dead run answered them (or would have, had it lived to answer): a
 * refusal as it was refused, a payout from the row it wrote, as first answered. A bank payout's rail
 * heard of it after the commit (or its outbox tells it since): one the rail refused at once was
 * answered as that refusal; any other is answered PENDING, as it was then, whatever it became since.
 */
export async function answerRecorded(db: Db, o: { businessId: number; mode: Mode }, recorded: RecordedItem[]): Promise<BatchResult<PayoutAnswer>[]> {
  const ids = recorded.flatMap((r) => ('payoutId' in r ? [r.payoutId] : []));
  const rows =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(payouts)
          .where(and(inArray(payouts.id, ids), eq(payouts.businessId, o.businessId), eq(payouts.mode, o.mode)));
  const refused =
    ids.length === 0
      ? new Set<number>()
      : new Set(
          (
            await db.execute<{ payout_id: string }>(
              sql`SELECT payout_id FROM rail_requests WHERE payout_id = ANY(${`{${ids.join(',')}}`}::bigint[]) AND provider_status = 'refused'`,
            )
          ).rows.map((r) => Number(r.payout_id)),
        );
  const byId = new Map(rows.map((p) => [p.id, p]));
  return recorded.map((r) => {
    if ('error' in r) return { ok: false, error: r.error };
    const row = byId.get(r.payoutId);
    if (!row) throw new Error(`payout ${r.payoutId} recorded by a batch is not the business's`);
    if (row.status === 'failed' && refused.has(row.id)) return { ok: false, error: railRefusal() };
    return { ok: true, value: firstPayoutAnswer(row) };
  });
}
