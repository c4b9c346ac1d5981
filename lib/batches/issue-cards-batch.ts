import type { Actor } from '../actor';
import { findOwnCards, toGiftCard, type GiftCard } from '../cards/card-view';
import { announceCardChange } from '../cards/announce-card';
import { CARD_COLLISIONS, CARD_TAKEN_MEANWHILE, expiryOfNewCard, issueCardIn, type CreateCardInput } from '../cards/create-card';
import type { Db } from '../db/client';
import { withoutCommitHook } from '../db/commit-hooks';
import { inTransaction, pgConstraint } from '../db/transaction';
import { notifyNewCardNumber } from '../messages/share-card';
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
 * same phone and currency is `card_exists`). Each item is the single call's
 * own statement (writeCard), one round trip, in one transaction for the
 * batch; a refused item writes nothing, so it needs no savepoint and leaves
 * the others. A collision with another transaction (a card or customer it
 * committed meanwhile, or a random number taken) ends the transaction, and
 * the batch is redone from the start, seeing what that one committed.
 */
export async function issueCardsBatch(db: Db, opts: IssueCardsBatchOptions): Promise<BatchResult<GiftCard>[]> {
  if (opts.items.length > MAX_CARDS_PER_BATCH) throw new RangeError(`at most ${MAX_CARDS_PER_BATCH} cards per batch`);
  const { businessId, mode } = opts;
  const expiresAt = await expiryOfNewCard(db, businessId);
  const results = await redoOnCollision(() =>
    inTransaction(db, (tx) =>
      withoutCommitHook(async () => {
        const issued: BatchResult<string>[] = [];
        for (const input of opts.items) {
          issued.push(
            await itemResult(async () => {
              const cardNumber = await issueCardIn(tx, { ...opts, input, expiresAt });
              if (input.notify) await notifyNewCardNumber(tx, businessId, mode, cardNumber);
              return cardNumber;
            }),
          );
        }
        return issued;
      }),
    ),
  );
  const numbers = results.flatMap((r) => (r.ok ? [r.value] : []));
  const rows = new Map((await findOwnCards(db, businessId, mode, numbers)).map((row) => [row.card_number, row]));
  if (numbers.length > 0) announceCardChange(db, businessId, mode, 'card.created', numbers[numbers.length - 1]);
  return results.map((r) => (r.ok ? { ok: true, value: toGiftCard(rows.get(r.value)!) } : r));
}

async function redoOnCollision<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (err) {
      const constraint = pgConstraint(err) ?? '';
      if (attempt >= 5 || !(CARD_COLLISIONS.has(constraint) || constraint === CARD_TAKEN_MEANWHILE)) throw err;
    }
  }
}
