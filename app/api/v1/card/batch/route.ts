import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { cardContracts } from '@/lib/api/contracts/cards';
import { batchItems, parseItems, runParsed, wireResult } from '@/lib/batches/batch-items';
import { MAX_CARDS_PER_BATCH } from '@/lib/batches/batch-limits';
import { issueCardsBatch } from '@/lib/batches/issue-cards-batch';
import { createCardSchema } from '@/lib/cards/create-card';
import { parseInput } from '@/lib/validation';

export const POST = apiRoute(cardContracts.createCardsBatch, async ({ db, auth, actor, body }) => {
  const parsed = parseItems(batchItems(body, 'cards', MAX_CARDS_PER_BATCH, 'POST /card'), (item) => parseInput(createCardSchema, item));
  const results = await runParsed(parsed, (items) => issueCardsBatch(db, { businessId: auth.businessId, mode: auth.mode, actor, items }));
  return { data: { results: results.map(wireResult) } };
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
