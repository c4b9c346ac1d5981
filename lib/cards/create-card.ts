import { is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db, DbOrTx } from '../db/client';
import { inOneStatement, inTransaction, pgConstraint } from '../db/transaction';
import { notifyNewCardNumber } from '../messages/share-card';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import { currencySchema, parseInput, type Mode } from '../validation';
import { getBusinessExpiry } from '../business/expiry-policy';
import { writeCard } from './card-statement';
import { cardExpiresAt } from './card-expiry';
import { announceCardChange } from './announce-card';
import { findOwnCard, toGiftCard, type GiftCard } from './card-view';
import { normalisePhone } from './phone';

const name = (field: string) =>
  z
    .string({ error: `${field} must be a string.` })
    .trim()
    .min(1, { error: `${field} must not be empty.` })
    .max(100, { error: `${field} must be at most 100 characters.` });

export const createCardSchema = z.object({
  phone_number: z
    .string({ error: (iss) => (iss.input === undefined ? 'phone_number is required.' : 'phone_number must be a string.') })
    .max(32, { error: 'phone_number is too long.' }),
  currency: currencySchema,
  first_name: name('first_name').optional(),
  last_name: name('last_name').optional(),
  notify: z.boolean({ error: 'notify must be true or false.' }).optional(),
});

export type CreateCardInput = z.output<typeof createCardSchema>;

export interface CreateCardOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  input: unknown;
}

export type IssueCardOptions = Omit<CreateCardOptions, 'input'> & {
  input: CreateCardInput;
  /** When the card expires (the business's policy, cardExpiresAt); read afresh when left out. A batch reads it once. */
  expiresAt?: Date | null;
};

/** A card issued now expires per the business's policy, counted from issue (a card not yet loaded counts from its issue). */
export async function expiryOfNewCard(db: DbOrTx, businessId: number): Promise<Date | null> {
  const expiry = await getBusinessExpiry(db, businessId);
  return cardExpiresAt(expiry.policy, new Date(), expiry.timeZone);
}

/**
 * Issues a card to a customer (found or created by phone number); one live card per customer, currency, business and mode.
 * The name is the business's own: a phone known from another business needs no first_name, and then carries no name.
 * The first name this business gives a customer stays: POST /card creates a card and renames no other, which also keeps
 * the payout path's memory of a named holder true (lib/payouts/payout-parties.ts).
 */
export async function createCard(db: Db, opts: CreateCardOptions): Promise<GiftCard> {
  const input = parseInput(createCardSchema, opts.input);
  const cardNumber = input.notify ? await issueNotifiedCard(db, { ...opts, input }) : await issueCardIn(db, { ...opts, input });
  announceCardChange(db, opts.businessId, opts.mode, 'card.created', cardNumber);
  return toGiftCard((await findOwnCard(db, opts.businessId, opts.mode, cardNumber))!);
}

/**
 * The card's statement (writeCard), alone or in a caller's transaction (a batch); answers its number. A random card
 * number or a concurrent first sight of the same phone that collides is tried again; a card the same customer got
 * meanwhile in another transaction is card_exists. In a caller's transaction any of these ends that transaction: the
 * caller redoes it (issueCardsBatch).
 */
export async function issueCardIn(db: DbOrTx, opts: IssueCardOptions): Promise<string> {
  const { input } = opts;
  const card = {
    businessId: opts.businessId,
    mode: opts.mode,
    actor: opts.actor,
    phone: normalisePhone(input.phone_number),
    currency: input.currency,
    firstName: input.first_name,
    lastName: input.last_name,
    expiresAt: opts.expiresAt === undefined ? await expiryOfNewCard(db, opts.businessId) : opts.expiresAt,
  };
  const alone = !is(db, PgTransaction);
  for (let attempt = 0; ; attempt++) {
    try {
      return alone ? await inOneStatement(db as Db, (q) => writeCard(q, card)) : await writeCard(db, card);
    } catch (err) {
      // In a caller's transaction the error has ended it: only the caller can redo.
      if (!alone) throw err;
      const constraint = pgConstraint(err);
      if (constraint === CARD_TAKEN_MEANWHILE) {
        throw new ServiceError('card_exists', `This customer already has a ${input.currency} gift card with this business.`);
      }
      if (CARD_COLLISIONS.has(constraint ?? '') && attempt < 5) continue;
      throw err;
    }
  }
}

/**
 * A card issued with notify: the card, its messages turned on, its link and the card_issued message in one
 * transaction, redone on the collisions issueCardIn redoes alone.
 */
async function issueNotifiedCard(db: Db, opts: IssueCardOptions): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await inTransaction(db, async (tx) => {
        const cardNumber = await issueCardIn(tx, opts);
        await notifyNewCardNumber(tx, opts.businessId, opts.mode, cardNumber);
        return cardNumber;
      });
    } catch (err) {
      const constraint = pgConstraint(err);
      if (constraint === CARD_TAKEN_MEANWHILE) {
        throw new ServiceError('card_exists', `This customer already has a ${opts.input.currency} gift card with this business.`);
      }
      if (CARD_COLLISIONS.has(constraint ?? '') && attempt < 5) continue;
      throw err;
    }
  }
}

/** Unique indexes a new card can hit by chance (a random number) or by a concurrent first sight of its phone: worth another try. */
export const CARD_COLLISIONS = new Set(['cards_card_number_unique', 'customers_phone_mode_idx', 'ledger_accounts_name_idx', 'cards_ref_id_unique']);

/** The unique index that another transaction's card for the same customer and currency trips: card_exists, seen afresh. */
export const CARD_TAKEN_MEANWHILE = 'cards_one_per_customer_idx';
