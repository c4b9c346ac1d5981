import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { batchItems, parseItems, runParsed, wireResult } from '@/lib/batches/batch-items';
import { MAX_PAYOUTS_PER_BATCH } from '@/lib/batches/batch-limits';
import { createPayoutsBatch } from '@/lib/batches/create-payouts-batch';
import { parsePayoutRequest } from '@/lib/payouts/payout-request';

export const POST = apiRoute(async ({ db, auth, actor, body }) => {
  const parsed = parseItems(batchItems(body, 'payouts', MAX_PAYOUTS_PER_BATCH, 'POST /card/payouts'), parsePayoutRequest);
  const results = await runParsed(parsed, (items) => createPayoutsBatch(db, { businessId: auth.businessId, mode: auth.mode, actor, items }));
  return { message: 'Payout batch processed', data: { results: results.map(wireResult) } };
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
