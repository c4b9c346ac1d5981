import { sql } from 'drizzle-orm';
import { ACTIVE } from '../cards/card-status';
import type { Db } from '../db/client';
import { compiledOnce, runCompiled } from '../db/prepared';
import type { FeeRule } from '../fees/fee-schedule';
import { RecentMap } from '../recent-map';
import type { Currency, Mode } from '../validation';
import type { PayoutType } from './payout-view';

export interface PayoutCard {
  id: number;
  business_id: number;
  card_number: string;
  currency: Currency;
  status: number;
  account_id: number;
  /** The holder as the card's own business named them; only a source card's (the caller's own) ever reaches an event. */
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string;
}

export interface PayoutParties {
  rule: FeeRule | undefined;
  /** The live cards of this mode among the numbers asked, of any business: the caller scopes. */
  cards: PayoutCard[];
  /** True when read from this process's memory: a guess the payout statement must confirm. */
  remembered: boolean;
}

// A card's business, currency, account and holder never change once it exists,
// so only active cards are remembered, and "active" is re-checked by every
// payout statement; a fee rule can change at any time and is re-checked too.
// A holder without a name is the exception: its business may name it later,
// so such a card is read afresh each time.
const cards = new RecentMap<PayoutCard>(50_000);
const rules = new RecentMap<FeeRule | null>(10_000);

/**
 * The fee rule and the cards a payout needs. From memory when every part is
 * remembered (no round trip), else read in one round trip and remembered.
 * `fresh` skips memory: after a payout statement refused what memory said.
 */
export async function payoutParties(db: Db, businessId: number, mode: Mode, type: PayoutType, numbers: string[], fresh: boolean): Promise<PayoutParties> {
  const ruleKey = `${businessId}|${mode}|${type}`;
  if (!fresh) {
    const rule = rules.get(ruleKey);
    const known = numbers.map((n) => cards.get(`${mode}|${n}`));
    if (rule !== undefined && known.every((c) => c !== undefined)) return { rule: rule ?? undefined, cards: known as PayoutCard[], remembered: true };
  }
  const read = await readParties(db, businessId, mode, type, numbers);
  rules.set(ruleKey, read.rule ?? null);
  rememberCards(mode, numbers, read.cards);
  return { ...read, remembered: false };
}

function rememberCards(mode: Mode, numbers: string[], found: PayoutCard[]) {
  const byNumber = new Map(found.map((c) => [c.card_number, c]));
  for (const n of numbers) {
    const card = byNumber.get(n);
    if (card?.status === ACTIVE && (card.first_name !== null || card.last_name !== null)) cards.set(`${mode}|${n}`, card);
    else cards.delete(`${mode}|${n}`);
  }
}

/**
 * A batch's parties read at once, before its payouts: the fee rules of its
 * types and the cards this process does not remember yet, two statements at
 * once (none when it remembers them all), so each payout then finds them in
 * memory instead of reading its own inside the batch's transaction, with its
 * cards locked. Remembered as payoutParties remembers them: still a guess
 * each payout statement confirms.
 */
export async function rememberBatchParties(db: Db, businessId: number, mode: Mode, types: PayoutType[], numbers: string[]): Promise<void> {
  const unknownTypes = [...new Set(types)].filter((t) => rules.get(`${businessId}|${mode}|${t}`) === undefined);
  const unknownNumbers = [...new Set(numbers)].filter((n) => cards.get(`${mode}|${n}`) === undefined);
  if (unknownTypes.length === 0 && unknownNumbers.length === 0) return;
  const textArray = (texts: string[]) => `{${texts.map((t) => JSON.stringify(t)).join(',')}}`;
  const [ruleRows, cardRows] = await Promise.all([
    unknownTypes.length === 0
      ? { rows: [] }
      : db.execute<{ applies_to: PayoutType } & FeeRuleRow>(sql`SELECT applies_to, percent_scaled, fixed, min, max FROM fee_rules
          WHERE business_id = ${businessId} AND mode = ${mode} AND applies_to = ANY(${textArray(unknownTypes)}::text[])`),
    unknownNumbers.length === 0
      ? { rows: [] }
      : db.execute<CardRow>(sql`SELECT ${cardColumns} FROM cards c JOIN customers cu ON cu.id = c.customer_id
          LEFT JOIN customer_names n ON n.business_id = c.business_id AND n.customer_id = c.customer_id
          WHERE c.mode = ${mode} AND c.cancelled_at IS NULL AND c.card_number = ANY(${textArray(unknownNumbers)}::text[])`),
  ]);
  for (const t of unknownTypes) rules.set(`${businessId}|${mode}|${t}`, feeRuleOf(ruleRows.rows.find((r) => r.applies_to === t)) ?? null);
  rememberCards(mode, unknownNumbers, cardRows.rows.map(cardOf));
}

/**
 * False only when this process remembers that the business has no fee rule
 * for the type: its payouts then post no fee (a batch need not hold a fee
 * revenue account). A guess the payout statement confirms, like the rest.
 */
export function mayChargeFee(businessId: number, mode: Mode, type: PayoutType): boolean {
  return rules.get(`${businessId}|${mode}|${type}`) !== null;
}

const P = sql.placeholder;
type FeeRuleRow = { percent_scaled: number | null; fixed: number | null; min: number | null; max: number | null };
type CardRow = { [K in keyof PayoutCard]: PayoutCard[K] | null } & Record<string, unknown>;
const cardColumns = sql.raw('c.id, c.business_id, c.card_number, c.currency, c.status, c.account_id, n.first_name, n.last_name, n.email, cu.phone_number');

const partiesQuery = compiledOnce(
  () => sql`
    SELECT f.percent_scaled, f.fixed, f.min, f.max, ${cardColumns}
    FROM (SELECT 1) one
    LEFT JOIN fee_rules f ON f.business_id = ${P('businessId')} AND f.mode = ${P('mode')} AND f.applies_to = ${P('type')}
    LEFT JOIN (cards c JOIN customers cu ON cu.id = c.customer_id
               LEFT JOIN customer_names n ON n.business_id = c.business_id AND n.customer_id = c.customer_id)
      ON c.mode = ${P('mode')} AND c.cancelled_at IS NULL AND c.card_number IN (${P('number')}, ${P('otherNumber')})`,
);

const feeRuleOf = (r: FeeRuleRow | undefined): FeeRule | undefined =>
  !r || r.percent_scaled === null ? undefined : { percentScaled: Number(r.percent_scaled), fixed: Number(r.fixed), min: r.min, max: r.max };

const cardOf = (r: CardRow): PayoutCard => ({
  id: Number(r.id),
  business_id: r.business_id!,
  card_number: r.card_number!,
  currency: r.currency!,
  status: r.status!,
  account_id: Number(r.account_id),
  first_name: r.first_name,
  last_name: r.last_name,
  email: r.email,
  phone_number: r.phone_number!,
});

/** One round trip; the one-row LEFT JOINs always answer a row, so the fee is known without cards. */
async function readParties(db: Db, businessId: number, mode: Mode, type: PayoutType, numbers: string[]) {
  const result = await runCompiled<CardRow & FeeRuleRow>(db, partiesQuery(), {
    businessId,
    mode,
    type,
    number: numbers[0],
    otherNumber: numbers[1] ?? null,
  });
  return { rule: feeRuleOf(result.rows[0]), cards: result.rows.filter((r) => r.id !== null).map(cardOf) };
}
