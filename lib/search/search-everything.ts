import { sql, type SQL } from 'drizzle-orm';
import { can } from '../auth/permissions';
import type { Role } from '../auth/users';
import { ACTIVE } from '../cards/card-status';
import { type CardRow, selectCards } from '../cards/card-view';
import type { DbOrTx } from '../db/client';
import { payoutNumbers, payoutSearchText } from '../db/schema';
import { likeEscape, nameFragment, searchCards } from '../dashboard/search-cards';
import { compactQuery } from './phone-candidates';
import { ServiceError } from '../errors';
import { type Mode, withoutControlCharacters } from '../validation';

/** Longer text is refused: no reference, name or number people search for comes near it. */
export const MAX_SEARCH_LENGTH = 100;
/** Results per kind in the header search; the lists (cards, payouts, payments) show the rest. */
const RESULTS_PER_KIND = 8;
/** Holders a name search looks at in the header search; "All matching cards" pages through every one. */
const NAME_MATCHES = 200;

interface CardHit {
  cardNumber: string;
  holder: string | null;
  phone: string;
  currency: string;
  status: 'active' | 'disabled' | 'cancelled';
}

interface PayoutHit {
  reference: string;
  type: string;
  isTopup: boolean;
  status: string;
  amount: number;
  currency: string;
  createdAt: string;
}

interface PaymentHit {
  linkReference: string;
  merchantReference: string | null;
  status: string;
  amount: number;
  currency: string;
  createdAt: string;
}

/**
 * A payout or payment reference that leads to one of the business's cards, for a role that finds cards but reads no
 * payouts or payments (support): the card, never the movement's amount, fee or destination.
 */
interface ReferenceHit {
  kind: 'payout' | 'payment';
  reference: string;
  card: CardHit;
}

interface BusinessHit {
  name: string;
  merchantId: string;
}

/** One search's results grouped by kind; a kind the role may not see is absent, not empty. */
export interface SearchResults {
  query: string;
  cards?: CardHit[];
  payouts?: PayoutHit[];
  payments?: PaymentHit[];
  /** Cards found by a payout or payment reference: only for a role that cannot open payouts and payments. */
  references?: ReferenceHit[];
  businesses?: BusinessHit[];
  /** Per kind: more matched than are shown. */
  more: { cards: boolean; payouts: boolean; payments: boolean; businesses: boolean };
}

export interface SearchEverythingOptions {
  businessId: number;
  mode: Mode;
  role: Role;
  /** The business's country, for national phone numbers. */
  country: string;
  query: string;
  limit?: number;
}

/** The query as the search takes it: trimmed, not empty, not longer than MAX_SEARCH_LENGTH. */
function checkSearchQuery(query: unknown): string {
  const q = typeof query === 'string' ? query.trim() : '';
  if (!q) throw new ServiceError('validation_error', { q: 'Type something to search for.' });
  if (q.length > MAX_SEARCH_LENGTH) throw new ServiceError('validation_error', { q: `Search for at most ${MAX_SEARCH_LENGTH} characters.` });
  if (withoutControlCharacters(q) !== q) throw new ServiceError('validation_error', { q: 'Search text cannot hold control characters.' });
  return q;
}

/** References are single words: a query with a space in it is never one. */
const referenceLike = (q: string) => (/^[\w\-.:/]{3,}$/.test(q) ? q : null);

/**
 * Payouts by what staff have at hand: a card number (spaces and dashes allowed) finds the payouts from that card, to
 * it, or topping it up, and a bank or wallet account number those paid to it, both exactly (payouts_numbers_idx);
 * a reference-like word any part of a reference (initiator or provider: one column), other text any part of the
 * account name, in any case (payouts_search_trgm_idx).
 */
export function payoutSearchCondition(query: string, scope: { businessId: number; mode: Mode }): SQL | null {
  const text = query.trim();
  const compact = compactQuery(text);
  // A number is matched whole: digit trigrams are common to many rows, so any part of a number would read a large share
  // of the index. A reference that is all digits is still found whole (the unique index). The matching ids come first
  // (an InitPlan on the two indexes): the planner cannot tell a rare card from a busy one, and walking the list index
  // in date order for a rare one reads every payout of the business; this way the cost follows the card's own payouts.
  if (/^\d{6,16}$/.test(compact)) {
    return sql`id = ANY(ARRAY(SELECT id FROM payouts WHERE business_id = ${scope.businessId} AND mode = ${scope.mode} AND (${payoutNumbers} @> ARRAY[${compact}]::text[] OR reference = ${compact})))`;
  }
  const contains = (part: string) => sql`${payoutSearchText} LIKE ${`%${likeEscape(part.toLowerCase())}%`}`;
  const ref = referenceLike(text);
  if (ref) return contains(ref);
  const name = nameFragment(text);
  return name ? contains(name) : null;
}

/** Payments by link reference or provider reference (exactly), or any part of the business's own order id (merchant_reference, any case). */
export function paymentSearchCondition(query: string): SQL | null {
  const ref = referenceLike(query.trim());
  if (!ref) return null;
  const forms = [sql`link_reference = ${ref}`, sql`provider_reference = ${ref}`];
  if (ref.length >= 3) forms.push(sql`(merchant_reference IS NOT NULL AND lower(merchant_reference) LIKE ${`%${likeEscape(ref.toLowerCase())}%`})`);
  return sql`(${sql.join(forms, sql` OR `)})`;
}

const cardStatus = (c: { status: number; cancelled_at: Date | null }): CardHit['status'] =>
  c.cancelled_at ? 'cancelled' : c.status === ACTIVE ? 'active' : 'disabled';

const cardHit = (c: CardRow): CardHit => ({
  cardNumber: c.card_number,
  holder: [c.first_name, c.last_name].filter(Boolean).join(' ') || null,
  phone: c.phone_number,
  currency: c.currency,
  status: cardStatus(c),
});

/**
 * The dashboard's one search: cards (number, last four, phone in any form,
 * any part of the holder's name as this business gave it, cancelled ones
 * included), payouts (reference), payments (link, provider or order
 * reference) and other businesses (name or merchant id, for business
 * payouts). Every kind is scoped to the business and mode, read on its own
 * index, and capped, so a search costs the same at 100 records or a million.
 */
export async function searchEverything(db: DbOrTx, opts: SearchEverythingOptions): Promise<SearchResults> {
  const q = checkSearchQuery(opts.query);
  const limit = opts.limit ?? RESULTS_PER_KIND;
  const more = { cards: false, payouts: false, payments: false, businesses: false };
  const cut = <T>(rows: T[], kind: keyof typeof more) => {
    more[kind] = rows.length > limit;
    return rows.slice(0, limit);
  };

  const cards = async (): Promise<CardHit[]> => {
    const page = await searchCards(db, {
      businessId: opts.businessId,
      mode: opts.mode,
      country: opts.country,
      query: q,
      nameMatchLimit: NAME_MATCHES,
      limit,
    });
    more.cards = page.nextAfter !== null;
    return page.items.map(cardHit);
  };

  const payouts = async (): Promise<PayoutHit[]> => {
    // A whole reference, the usual case here, is one probe of the unique index; only otherwise are parts looked for.
    const whole = referenceLike(q);
    const exact = whole
      ? await db.execute<{ id: number }>(sql`SELECT id FROM payouts WHERE reference = ${whole} AND business_id = ${opts.businessId} AND mode = ${opts.mode}`)
      : undefined;
    const condition = exact?.rows.length ? sql`id = ${exact.rows[0].id}` : payoutSearchCondition(q, opts);
    if (!condition) return [];
    const result = await db.execute<{
      reference: string;
      payout_type: string;
      is_ledger_topup: boolean;
      status: string;
      amount: string;
      currency: string;
      created_at: Date;
    }>(sql`
      SELECT reference, payout_type, is_ledger_topup, status, amount, currency, created_at FROM payouts
      WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND ${condition}
      ORDER BY reference = ${q} DESC, created_at DESC, id DESC LIMIT ${limit + 1}`);
    return cut(result.rows, 'payouts').map((p) => ({
      reference: p.reference,
      type: p.payout_type,
      isTopup: p.is_ledger_topup,
      status: p.status,
      amount: Number(p.amount),
      currency: p.currency,
      createdAt: new Date(p.created_at).toISOString(),
    }));
  };

  const payments = async (): Promise<PaymentHit[]> => {
    const condition = paymentSearchCondition(q);
    if (!condition) return [];
    const result = await db.execute<{
      link_reference: string;
      merchant_reference: string | null;
      status: string;
      amount: string;
      currency: string;
      created_at: Date;
    }>(sql`
      SELECT link_reference, merchant_reference, status, amount, currency, created_at FROM payments
      WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND ${condition}
      ORDER BY lower(merchant_reference) = ${q.toLowerCase()} DESC NULLS LAST, created_at DESC, id DESC LIMIT ${limit + 1}`);
    return cut(result.rows, 'payments').map((p) => ({
      linkReference: p.link_reference,
      merchantReference: p.merchant_reference,
      status: p.status,
      amount: Number(p.amount),
      currency: p.currency,
      createdAt: new Date(p.created_at).toISOString(),
    }));
  };

  // A reference read out by a customer, exactly, to the card it moved: the source card of a payout (the topped-up card of
  // a ledger top-up), the card a payment credits. Only the business's own cards, cancelled ones included.
  const references = async (): Promise<ReferenceHit[]> => {
    const ref = referenceLike(q);
    if (!ref) return [];
    const found = await db.execute<{ kind: 'payout' | 'payment'; reference: string; card_number: string }>(sql`
      SELECT 'payout' AS kind, reference, CASE WHEN is_ledger_topup THEN account_number ELSE source_card_number END AS card_number
      FROM payouts WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND reference = ${ref}
      UNION ALL
      SELECT 'payment', link_reference, card_number
      FROM payments WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND (link_reference = ${ref} OR provider_reference = ${ref})
      LIMIT ${limit}`);
    const numbers = [...new Set(found.rows.map((r) => r.card_number).filter(Boolean))];
    if (!numbers.length) return [];
    const cards = await selectCards(
      db,
      sql`c.business_id = ${opts.businessId} AND c.mode = ${opts.mode} AND c.card_number IN (${sql.join(
        numbers.map((n) => sql`${n}`),
        sql`, `,
      )})`,
    );
    return found.rows.flatMap((r) => {
      const c = cards.find((card) => card.card_number === r.card_number);
      return c ? [{ kind: r.kind, reference: r.reference, card: cardHit(c) }] : [];
    });
  };

  // Another business: its public name and merchant id only, for a business payout to it.
  const businesses = async (): Promise<BusinessHit[]> => {
    const forms: SQL[] = [sql`merchant_id = ${q}`];
    const name = nameFragment(q) ?? (q.length >= 3 ? q.toLowerCase() : null);
    if (name) forms.push(sql`lower(name) LIKE ${`%${likeEscape(name)}%`}`);
    const result = await db.execute<{ name: string; merchant_id: string }>(sql`
      SELECT name, merchant_id FROM businesses
      WHERE id <> ${opts.businessId} AND (${sql.join(forms, sql` OR `)})
      ORDER BY merchant_id = ${q} DESC, lower(name) = ${q.toLowerCase()} DESC, name, id LIMIT ${limit + 1}`);
    return cut(result.rows, 'businesses').map((b) => ({ name: b.name, merchantId: b.merchant_id }));
  };

  const none = async () => undefined;
  const history = can(opts.role, 'history:read');
  const findsCards = can(opts.role, 'cards:read');
  const [cardHits, payoutHits, paymentHits, referenceHits, businessHits] = await Promise.all([
    findsCards ? cards() : none(),
    history ? payouts() : none(),
    history ? payments() : none(),
    findsCards && !history ? references() : none(),
    can(opts.role, 'money:move') ? businesses() : none(),
  ]);
  return { query: q, cards: cardHits, payouts: payoutHits, payments: paymentHits, references: referenceHits, businesses: businessHits, more };
}
