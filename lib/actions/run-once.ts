import { createHash } from 'node:crypto';
import { withIdempotency } from '../api/idempotency';
import type { DashboardSession } from '../auth/session-types';
import type { Db } from '../db/client';

export interface RunOnceOptions {
  action: string;
  submissionId: string;
  input: unknown;
}

/**
 * A money-moving dashboard action runs once per form submission: the form's
 * submission id is an idempotency key in the API's table, under the negative of
 * the user's id (API keys have positive ids, so the two never meet). A second
 * submission gets the first answer; one arriving while the first still runs
 * is refused as in progress. A failure releases the key so the user can retry.
 */
export async function runOnce<T>(db: Db, session: DashboardSession, opts: RunOnceOptions, run: () => Promise<T>): Promise<T> {
  const fingerprint = createHash('sha256')
    .update(JSON.stringify([opts.action, session.businessId, session.mode, opts.input]))
    .digest('hex');
  const res = await withIdempotency(db, { apiKeyId: -session.userId, key: `dashboard:${opts.submissionId}`, fingerprint }, async () => {
    const data = await run();
    return new Response(JSON.stringify(data ?? null), { status: 200 });
  });
  return (await res.json()) as T;
}
