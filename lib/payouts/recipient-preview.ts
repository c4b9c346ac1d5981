import { sql } from 'drizzle-orm';
import { ACTIVE } from '../cards/card-status';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import type { Currency, Mode } from '../validation';

/**
 * Who a card-to-card payout would reach, as far as privacy allows: the last
 * four digits and currency of any card of this mode; the holder's first name
 * and last initial only on the business's own cards (from the names this
 * business gave); for another business's card, that business's name and
 * nothing of the holder. Never a phone number, an email or a full name.
 */
export interface RecipientPreview {
  lastFour: string;
  currency: Currency;
  /** True when the card is one of the signed-in business's own. */
  ownCard: boolean;
  /** "Abebe K." on an own card with a name on file, else null. */
  holder: string | null;
  /** The other business's name, on another business's card; null on an own card. */
  businessName: string | null;
  canReceive: boolean;
  /** Why it cannot receive, in plain words. */
  reason: string | null;
  /** The same why as a code, for a dashboard that says it in another language; the other card's currency with it. */
  refusal: { code: 'cancelled' | 'disabled' | 'same_card' | 'currency_mismatch'; sourceCurrency?: Currency } | null;
}

const REFUSAL_WORDS: Record<NonNullable<RecipientPreview['refusal']>['code'], (currency: Currency, source?: Currency) => string> = {
  cancelled: () => 'This card is cancelled and cannot receive money.',
  disabled: () => 'This card is disabled and cannot receive money until it is enabled.',
  same_card: () => 'This is the source card itself; choose another card.',
  currency_mismatch: (currency, source) => `This card holds ${currency}; the source card holds ${source}. Money moves only between cards of one currency.`,
};

interface Row extends Record<string, unknown> {
  card_number: string;
  business_id: number;
  currency: Currency;
  status: number;
  cancelled: boolean;
  business_name: string;
  first_name: string | null;
  last_name: string | null;
}

/** "Abebe" and "Kebede" to "Abebe K."; only a first name, "Abebe"; neither, null. */
function shortHolderName(first: string | null, last: string | null): string | null {
  const given = first?.trim() ?? '';
  const initial = last?.trim().charAt(0).toUpperCase() ?? '';
  if (!given) return initial ? `${initial}.` : null;
  return initial ? `${given} ${initial}.` : given;
}

/**
 * The recipient of a card-to-card payout from `sourceCardNumber` (one of the
 * business's own; optional) to `cardNumber`, in the session's mode.
 */
export async function previewRecipient(
  db: Db,
  opts: { businessId: number; mode: Mode; cardNumber: string; sourceCardNumber?: string },
): Promise<RecipientPreview> {
  // The names are joined on this business only: another business's names are never read, so they cannot leak.
  const result = await db.execute<Row>(sql`
    SELECT c.card_number, c.business_id, c.currency, c.status, c.cancelled_at IS NOT NULL AS cancelled, b.name AS business_name,
           n.first_name, n.last_name
    FROM cards c
    JOIN businesses b ON b.id = c.business_id
    LEFT JOIN customer_names n ON n.business_id = ${opts.businessId} AND c.business_id = ${opts.businessId} AND n.customer_id = c.customer_id
    WHERE c.mode = ${opts.mode} AND c.card_number IN (${opts.cardNumber}, ${opts.sourceCardNumber ?? opts.cardNumber})`);
  const card = result.rows.find((r) => r.card_number === opts.cardNumber);
  const ownCard = card?.business_id === opts.businessId;
  // A cancelled card of another business is as unknown as one that never was; a cancelled own card says so.
  if (!card || (card.cancelled && !ownCard)) {
    throw new ServiceError('destination_card_not_found', `No active gift card in ${opts.mode} mode has this number.`, {
      field: 'destination_card_number',
    });
  }
  const source = opts.sourceCardNumber ? result.rows.find((r) => r.card_number === opts.sourceCardNumber && r.business_id === opts.businessId) : undefined;
  const refusal: RecipientPreview['refusal'] = card.cancelled
    ? { code: 'cancelled' }
    : card.status !== ACTIVE
      ? { code: 'disabled' }
      : opts.sourceCardNumber === opts.cardNumber
        ? { code: 'same_card' }
        : source && !source.cancelled && source.currency !== card.currency
          ? { code: 'currency_mismatch', sourceCurrency: source.currency }
          : null;
  const reason = refusal && REFUSAL_WORDS[refusal.code](card.currency, refusal.sourceCurrency);
  return {
    lastFour: opts.cardNumber.slice(-4),
    currency: card.currency,
    ownCard,
    holder: ownCard ? shortHolderName(card.first_name, card.last_name) : null,
    businessName: ownCard ? null : card.business_name,
    canReceive: refusal === null,
    reason,
    refusal,
  };
}
