import type { Actor } from '../actor';
import { findOwnCards, toGiftCard, type GiftCard } from '../cards/card-view';
import { announceCardChange } from '../cards/announce-card';
import { issueCardIn, type CreateCardInput } from '../cards/create-card';
import type { Db } from '../db/client';
import { withoutCommitHook } from '../db/commit-hooks';
import { bumpCounter } from '../db/list-counters';
import { inTransaction } from '../db/transaction';
import type { Mode } from '../validation';
import { MAX_CARDS_PER_BATCH } from './batch-limits';
import { itemResult, type BatchResult } from './batch-result';

export interface IssueCardsBatchOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  /** Each item as POST /card takes it, parsed; an item that did not parse is the caller's to answer. */
  items: CreateCardInput[];
}

/**
 * Issues cards in order, as if each were POST /card sent one after another:
 * item k sees the customers and cards of items 1..k-1 (a second card for the
 * same phone and currency is `card_exists`). One transaction for the batch,
 * each item in a savepoint, so a refused item leaves the others; the list
 * count moves once. Answers one result per item, in order.
 */
export async function issueCardsBatch(db: Db, opts: IssueCardsBatchOptions): Promise<BatchResult<GiftCard>[]> {
  if (opts.items.length > MAX_CARDS_PER_BATCH) throw new RangeError(`at most ${MAX_CARDS_PER_BATCH} cards per batch`);
  const { businessId, mode } = opts;
  const results = await inTransaction(db, (tx) =>
    withoutCommitHook(async () => {
      const issued: BatchResult<string>[] = [];
      for (const input of opts.items) issued.push(await itemResult(() => issueCardIn(tx, { ...opts, input }, false)));
      const count = issued.filter((r) => r.ok).length;
      if (count > 0) await bumpCounter(tx, businessId, mode, 'cards', count);
      return issued;
    }),
  );
  const numbers = results.flatMap((r) => (r.ok ? [r.value] : []));
  const rows = new Map((await findOwnCards(db, businessId, mode, numbers)).map((row) => [row.card_number, row]));
  if (numbers.length > 0) announceCardChange(db, businessId, mode, 'card.created', numbers[numbers.length - 1]);
  return results.map((r) => (r.ok ? { ok: true, value: toGiftCard(rows.get(r.value)!) } : r));
}
