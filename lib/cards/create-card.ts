import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../db/client';
import { bumpCounter } from '../db/list-counters';
import { cards, customerNames, customers } from '../db/schema';
import { inTransaction, pgConstraint } from '../db/transaction';
import { ServiceError } from '../errors';
import { newCardNumber } from '../ids';
import { createCardAccount } from '../ledger/accounts';
import type { Actor } from '../actor';
import { currencySchema, parseInput, type Mode } from '../validation';
import { recordAudit } from '../audit';
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
});

export type CreateCardInput = z.output<typeof createCardSchema>;

export interface CreateCardOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  input: unknown;
}

export type IssueCardOptions = Omit<CreateCardOptions, 'input'> & { input: CreateCardInput };

/**
 * Issues a card to a customer (found or created by phone number); one live card per customer, currency, business and mode.
 * The name is the business's own: a phone known from another business needs no first_name, and then carries no name.
 */
export async function createCard(db: Db, opts: CreateCardOptions): Promise<GiftCard> {
  const input = parseInput(createCardSchema, opts.input);
  const cardNumber = await inTransaction(db, (tx) => issueCardIn(tx, { ...opts, input }));
  announceCardChange(db, opts.businessId, opts.mode, 'card.created', cardNumber);
  return toGiftCard((await findOwnCard(db, opts.businessId, opts.mode, cardNumber))!);
}

/**
 * The card's rows, written in the caller's transaction (a batch runs one per
 * savepoint); answers its number. A random card number or a concurrent first
 * sight of the same phone that collides is tried again, in a savepoint of its own.
 */
export async function issueCardIn(tx: Tx, opts: IssueCardOptions, countCard = true): Promise<string> {
  const { input } = opts;
  const phone = normalisePhone(input.phone_number);
  for (let attempt = 0; ; attempt++) {
    try {
      return await tx.transaction(async (sp) => {
        const customerId = await findOrCreateCustomer(sp, opts.mode, phone, input.first_name);
        await nameCustomer(sp, opts.businessId, customerId, input.first_name, input.last_name);
        const cardNumber = newCardNumber();
        const accountId = await createCardAccount(sp, { businessId: opts.businessId, mode: opts.mode, currency: input.currency, cardNumber });
        await sp.insert(cards).values({
          refId: randomUUID(),
          businessId: opts.businessId,
          mode: opts.mode,
          customerId,
          cardNumber,
          currency: input.currency,
          accountId,
        });
        if (countCard) await bumpCounter(sp, opts.businessId, opts.mode, 'cards', 1);
        await recordAudit(sp, { businessId: opts.businessId, mode: opts.mode, actor: opts.actor, action: 'card.created', target: cardNumber });
        return cardNumber;
      });
    } catch (err) {
      const constraint = pgConstraint(err);
      if (constraint === 'cards_one_per_customer_idx') {
        throw new ServiceError('card_exists', `This customer already has a ${input.currency} gift card with this business.`);
      }
      if ((constraint === 'cards_card_number_unique' || constraint === 'customers_phone_mode_idx' || constraint === 'ledger_accounts_name_idx') && attempt < 5)
        continue;
      throw err;
    }
  }
}

/** "New to the service" is decided by the phone alone, across businesses, as SPEC.md says. */
async function findOrCreateCustomer(tx: Tx, mode: Mode, phone: { e164: string; national: string }, firstName?: string) {
  const [existing] = await tx
    .select({ id: customers.id })
    .from(customers)
    .where(and(eq(customers.phoneNumber, phone.e164), eq(customers.mode, mode)));
  if (existing) return existing.id;
  if (!firstName) throw new ServiceError('user_not_found', `No customer has this phone number in ${mode} mode yet: send first_name to create one.`);
  const [created] = await tx.insert(customers).values({ mode, phoneNumber: phone.e164, nationalNumber: phone.national }).returning({ id: customers.id });
  return created.id;
}

/**
 * The first name this business gives a customer stays: POST /card creates a card and renames no other.
 * That also keeps the payout path's memory of a named holder true (lib/payouts/payout-parties.ts).
 */
async function nameCustomer(tx: Tx, businessId: number, customerId: number, firstName?: string, lastName?: string) {
  if (!firstName && !lastName) return;
  await tx
    .insert(customerNames)
    .values({ businessId, customerId, firstName: firstName ?? null, lastName: lastName ?? null })
    .onConflictDoNothing({ target: [customerNames.businessId, customerNames.customerId] });
}
