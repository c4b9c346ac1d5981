import { ACTIVE, DISABLED, DISABLED_BY_EXPIRY } from './card-status';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { cards } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import { parseInput, type Mode } from '../validation';
import { findOwnCard, selectCards, toGiftCard, type GiftCard } from './card-view';
import { announceCardChange } from './announce-card';
import { requireOwnCard } from './get-card';

export const cardStatusSchema = z.object({
  status: z.enum(['enable', 'disable'], {
    error: (iss) => (iss.input === undefined ? 'status is required.' : 'status must be enable or disable.'),
  }),
});

export interface SetCardStatusOptions {
  businessId: number;
  mode: Mode;
  cardNumber: string;
  actor: Actor;
  input: unknown;
  /** Why, as typed in the dashboard's disable dialog: kept in the audit line and shown on the card's story. */
  reason?: string;
}

/** The business disables or re-enables its card; a card the provider disabled stays disabled. */
export async function setCardStatus(db: Db, opts: SetCardStatusOptions): Promise<{ card: GiftCard; action: 'enable' | 'disable' }> {
  const { status: action } = parseInput(cardStatusSchema, opts.input);
  await inTransaction(db, async (tx) => {
    const card = await requireOwnCard(tx, opts.businessId, opts.mode, opts.cardNumber, true);
    if (action === 'disable') {
      if (card.status !== ACTIVE) throw new ServiceError('already_disabled', 'This gift card is already disabled.');
      await tx.update(cards).set({ status: DISABLED, disabledBy: 'business', updatedAt: sql`now()` }).where(eq(cards.id, card.id));
    } else {
      if (card.disabled_by === DISABLED_BY_EXPIRY) throw new ServiceError('cannot_enable', 'This gift card has expired; an expired card cannot be enabled.');
      if (card.status !== ACTIVE && card.disabled_by !== 'business') {
        throw new ServiceError('cannot_enable', 'This gift card was disabled by the provider; only the provider can enable it.');
      }
      if (card.status !== ACTIVE) {
        await tx.update(cards).set({ status: ACTIVE, disabledBy: null, updatedAt: sql`now()` }).where(eq(cards.id, card.id));
      }
    }
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor: opts.actor,
      action: `card.${action}d`,
      target: card.card_number,
      details: action === 'disable' && opts.reason ? { reason: opts.reason.slice(0, 200) } : undefined,
    });
  });
  const card = await findOwnCard(db, opts.businessId, opts.mode, opts.cardNumber.trim());
  announceCardChange(db, opts.businessId, opts.mode, 'card.updated', card!.card_number);
  return { card: toGiftCard(card!), action };
}

/** The provider's own disable, which the business cannot lift. Finds the card in any business. */
export async function setCardStatusAsProvider(db: Db, cardNumber: string, action: 'enable' | 'disable', actor: Actor, reason?: string): Promise<GiftCard> {
  const changed = await inTransaction(db, async (tx) => {
    const [card] = await selectCards(tx, sql`c.card_number = ${cardNumber} AND c.cancelled_at IS NULL`, sql`FOR UPDATE OF c`);
    if (!card) throw new ServiceError('card_not_found', 'No gift card has this number.');
    if (card.disabled_by === DISABLED_BY_EXPIRY) {
      // An expired card stays as its expiry left it: the provider's disable or enable does not touch it.
    } else if (action === 'disable') {
      await tx.update(cards).set({ status: DISABLED, disabledBy: 'provider', updatedAt: sql`now()` }).where(eq(cards.id, card.id));
    } else if (card.disabled_by === 'provider') {
      await tx.update(cards).set({ status: ACTIVE, disabledBy: null, updatedAt: sql`now()` }).where(eq(cards.id, card.id));
    }
    await recordAudit(tx, {
      businessId: card.business_id,
      mode: card.mode,
      actor,
      action: `card.provider_${action}d`,
      target: cardNumber,
      details: action === 'disable' && reason ? { reason: reason.slice(0, 200) } : undefined,
    });
    const [updated] = await selectCards(tx, sql`c.id = ${card.id}`);
    return updated;
  });
  announceCardChange(db, changed.business_id, changed.mode, 'card.updated', changed.card_number);
  return toGiftCard(changed);
}
