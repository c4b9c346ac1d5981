import { apiRoute, methodsNotAllowed, type ApiContext } from '@/lib/api/api-route';
import { payoutContracts } from '@/lib/api/contracts/payouts';
import { batchItems, parseItems, runParsed, wireResult } from '@/lib/batches/batch-items';
import { MAX_PAYOUTS_PER_BATCH } from '@/lib/batches/batch-limits';
import { createPayoutsBatch } from '@/lib/batches/create-payouts-batch';
import { recordedItems, type RecordedItem } from '@/lib/batches/payout-batch-record';
import { parsePayoutRequest } from '@/lib/payouts/payout-request';

const payoutsBatch = async ({ db, auth, actor, body }: ApiContext<Record<string, string>>, recorded?: RecordedItem[]) => {
  const parsed = parseItems(batchItems(body, 'payouts', MAX_PAYOUTS_PER_BATCH, 'POST /card/payouts'), parsePayoutRequest);
  const results = await runParsed(parsed, (items) => createPayoutsBatch(db, { businessId: auth.businessId, mode: auth.mode, actor, items, recorded }));
  return { data: { results: results.map(wireResult) } };
};

export const POST = apiRoute(payoutContracts.createPayoutsBatch, (ctx) => payoutsBatch(ctx), {
  // A run that died between two commits (same key, same body) is finished: its committed items answered from their records, the rest run now.
  resumeCommitted: (ctx, committed) => {
    const recorded = recordedItems(committed);
    return recorded && (() => payoutsBatch(ctx, recorded));
  },
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
