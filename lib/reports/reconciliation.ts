import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { csvLine, unitsText } from '../dashboard/csv';
import { payoutNetSql } from '../dashboard/net-amount';
import { entryBoundary, STRAGGLER_MS } from '../ledger/entry-boundary';
import { ServiceError, type FieldErrors } from '../errors';
import { BANKS } from '../rails/banks';
import { CURRENCIES, type Currency, type Mode } from '../validation';
import { dayRangeOf, parseCurrencyParam, parseRangeParams, reportRead, type DayRange, type ReportParams } from './report-range';

/** The longest range one report reads: a year and a day. */
export const MAX_RECONCILIATION_DAYS = 366;

export type FigureGroup = 'in' | 'out' | 'reversals' | 'fees' | 'ledger';

/**
 * Every figure of a day, with its meaning in words: the page's definitions
 * and the CSV's headers both come from here. Amounts are what moved on this
 * business's own ledger accounts (its cards and its business account), except
 * fees, which are the provider's fee revenue in the same transactions.
 */
export const FIGURES = [
  {
    key: 'paymentsHosted',
    group: 'in',
    label: 'Hosted payments',
    csv: 'payments_hosted',
    onPage: true,
    text: 'Paid top-ups through the hosted checkout page: what reached the cards (or the business account, for a card closed meanwhile). The payer’s fee is counted under fees.',
  },
  {
    key: 'paymentsWallet',
    group: 'in',
    label: 'Wallet payments',
    csv: 'payments_wallet',
    onPage: true,
    text: 'Paid top-ups charged directly to a mobile wallet: what reached the cards.',
  },
  {
    key: 'deposits',
    group: 'in',
    label: 'Deposits',
    csv: 'deposits',
    onPage: true,
    text: 'Money added to the business account from outside (a recorded deposit).',
  },
  {
    key: 'b2bReceived',
    group: 'in',
    label: 'B2B received',
    csv: 'b2b_received',
    onPage: true,
    text: 'Business payouts another business sent to this one’s business account, after that business’s fee.',
  },
  {
    key: 'topupsDelivered',
    group: 'in',
    label: 'Top-ups to cards',
    csv: 'topups_delivered',
    onPage: true,
    text: 'Ledger top-ups that reached their card. They left the business account earlier (top-ups sent), so across both days they move money within the business.',
  },
  {
    key: 'cardToCardFromOthers',
    group: 'in',
    label: 'Card-to-card from other businesses',
    csv: 'card_to_card_from_other_businesses',
    onPage: true,
    text: 'What this business’s cards received from cards of other businesses (the amount less the fee when the receiver pays it): new money to this business.',
  },
  {
    key: 'cardToCardReceived',
    group: 'in',
    label: 'Card-to-card received',
    csv: 'card_to_card_received',
    onPage: false,
    text: 'What this business’s cards received from its own cards (the amount less the fee when the receiver pays it); the same payouts appear under card-to-card sent.',
  },
  {
    key: 'cardsSweptIn',
    group: 'in',
    label: 'Swept from cancelled cards',
    csv: 'cancelled_cards_swept_in',
    onPage: false,
    text: 'Balances of cancelled cards moved to the business account; the same amount appears as cancelled cards emptied.',
  },
  {
    key: 'cardToCardSent',
    group: 'out',
    label: 'Card-to-card',
    csv: 'payouts_card_to_card',
    onPage: true,
    text: 'What left this business’s cards for its own cards: the amount, plus the fee when the sender pays it. It stays in the business, less the fee.',
  },
  {
    key: 'cardToCardToOthers',
    group: 'out',
    label: 'Card-to-card to other businesses',
    csv: 'payouts_card_to_card_other_businesses',
    onPage: true,
    text: 'What left this business’s cards for cards of other businesses: the amount, plus the fee when the sender pays it. It leaves the business.',
  },
  {
    key: 'bankPayouts',
    group: 'out',
    label: 'Bank payouts',
    csv: 'payouts_bank',
    onPage: true,
    text: 'What left cards for bank accounts, taken when the payout was accepted; a payout that later fails comes back under reversals.',
  },
  { key: 'walletPayouts', group: 'out', label: 'Wallet payouts', csv: 'payouts_wallet', onPage: true, text: 'The same for payouts to mobile wallets.' },
  {
    key: 'b2bSent',
    group: 'out',
    label: 'B2B sent',
    csv: 'payouts_b2b',
    onPage: true,
    text: 'What left this business’s cards for other businesses’ business accounts.',
  },
  {
    key: 'topupsSent',
    group: 'out',
    label: 'Top-ups sent',
    csv: 'topups_sent',
    onPage: true,
    text: 'Ledger top-ups leaving the business account on their way to a card.',
  },
  {
    key: 'cardsEmptied',
    group: 'out',
    label: 'Cancelled cards emptied',
    csv: 'cancelled_cards_emptied',
    onPage: false,
    text: 'What cancelled cards held when they were cancelled, moved to the business account.',
  },
  {
    key: 'payoutsRefunded',
    group: 'reversals',
    label: 'Payouts refunded',
    csv: 'payouts_refunded',
    onPage: true,
    text: 'Failed bank and wallet payouts given back whole, to the card or, when it was cancelled or disabled, to the business account.',
  },
  {
    key: 'topupsReturned',
    group: 'reversals',
    label: 'Top-ups returned',
    csv: 'topups_returned',
    onPage: true,
    text: 'Ledger top-ups that could not be delivered, back in the business account.',
  },
  {
    key: 'feesOnPayouts',
    group: 'fees',
    label: 'Fees on payouts',
    csv: 'fees_on_payouts',
    onPage: true,
    text: 'The provider’s fees on card-to-card, bank, wallet and B2B payouts sent, paid from the cards.',
  },
  {
    key: 'feesOnPayments',
    group: 'fees',
    label: 'Fees on payments',
    csv: 'fees_on_payments',
    onPage: true,
    text: 'The provider’s fees on paid top-ups, paid by the payer on top of the amount.',
  },
  { key: 'feesRefunded', group: 'fees', label: 'Fees refunded', csv: 'fees_refunded', onPage: true, text: 'Fees given back with failed payouts.' },
  { key: 'otherIn', group: 'ledger', label: 'Other in', csv: 'other_in', onPage: false, text: 'Movements of any other kind into this business’s accounts.' },
  {
    key: 'otherOut',
    group: 'ledger',
    label: 'Other out',
    csv: 'other_out',
    onPage: false,
    text: 'Movements of any other kind out of this business’s accounts.',
  },
  {
    key: 'netChange',
    group: 'ledger',
    label: 'Net change',
    csv: 'net_change',
    onPage: true,
    text: 'The change in everything this business holds (its cards and its business account): money in, less money out, plus reversals.',
  },
  {
    key: 'debits',
    group: 'ledger',
    label: 'Debits',
    csv: 'trial_debits',
    onPage: false,
    text: 'Trial balance: every amount taken from any account (the provider’s clearing and fee accounts included) by the day’s transactions.',
  },
  {
    key: 'credits',
    group: 'ledger',
    label: 'Credits',
    csv: 'trial_credits',
    onPage: false,
    text: 'Trial balance: every amount added to any account by the same transactions. Debits must equal credits.',
  },
] as const satisfies readonly { key: string; group: FigureGroup; label: string; csv: string; onPage: boolean; text: string }[];

export type FigureKey = (typeof FIGURES)[number]['key'];
export type Figures = Record<FigureKey, number>;

/** Each way the ledger is checked against the payouts and payments tables, and what it compares. */
export const CROSS_CHECKS = {
  payment: 'Payments completed successfully that day: the amount each credited and its fee.',
  payout: 'Payouts accepted that day (card-to-card, bank, wallet, B2B sent), whatever their status since: what left the card, and the fee.',
  payout_refund: 'Payouts that failed that day: the refund and the fee given back.',
  topup_sent: 'Ledger top-ups made that day: what left the business account.',
  topup_delivered: 'Ledger top-ups delivered that day: what reached the card.',
  topup_returned: 'Ledger top-ups that failed that day: what came back.',
  b2b_received: 'Business payouts other businesses sent to this one that day: what reached the business account.',
  card_to_card_received: 'Card-to-card payouts from other businesses’ cards to this one’s that day: what reached the cards.',
} as const;
type CrossCheck = keyof typeof CROSS_CHECKS;

/** What one row of each check is called in a sentence. */
const CHECK_NOUNS: Record<CrossCheck, string> = {
  payment: 'payment',
  payout: 'payout',
  payout_refund: 'failed payout',
  topup_sent: 'ledger top-up',
  topup_delivered: 'delivered top-up',
  topup_returned: 'returned top-up',
  b2b_received: 'business payout received',
  card_to_card_received: 'card-to-card received from another business',
};

interface CheckTotal {
  check: CrossCheck;
  /** The ledger's figures and the operational rows' figures (amount and fee), and how many of each. */
  ledger: number;
  rows: number;
  ledgerFee: number;
  rowsFee: number;
  ledgerCount: number;
  rowsCount: number;
}

const PROBLEM_ORDER = ['unbalanced', 'balance_chain', 'rows_differ', 'no_row', 'no_ledger'] as const;
export type ProblemKind = (typeof PROBLEM_ORDER)[number];

interface ReconciliationProblem {
  problem: ProblemKind;
  /** The ledger transaction; null when an operational row has none. */
  transactionId: number | null;
  ledgerKind: string | null;
  reference: string | null;
  /** What the ledger is off by, in minor units (ledger minus what it should be). */
  offBy: number;
  detail: string;
}

export interface ReconciliationDay {
  day: string;
  currency: Currency;
  transactions: number;
  figures: Figures;
  checks: CheckTotal[];
  /** The listed problems: at most PROBLEM_LIMIT of each kind across the range. */
  problems: ReconciliationProblem[];
  /** How many problems the day has, listed or not. */
  problemCount: number;
  reconciles: boolean;
}

export interface ReconciliationReport {
  range: DayRange;
  currency?: Currency;
  /** Days with any movement or operational row, oldest first, each currency apart. */
  days: ReconciliationDay[];
  /** The range's sums per currency. */
  totals: { currency: Currency; figures: Figures; transactions: number; reconciles: boolean }[];
  /** True when more problems were found than are listed. */
  truncated: boolean;
}

export interface ReconciliationOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  from: string;
  to: string;
  currency?: Currency;
}

const PROBLEM_LIMIT = 500;
const WALLETS = BANKS.filter((b) => b.type === 'wallet').map((b) => b.slug);
const SENT_PAYOUTS = ['payout_card_to_card', 'payout_bank', 'payout_b2b'];
const PAYOUT_KINDS = [...SENT_PAYOUTS, 'payout_bank_reversal', 'transfer', 'transfer_settlement', 'transfer_reversal'];
const KNOWN_KINDS = [...PAYOUT_KINDS, 'payment', 'business_deposit', 'card_cancellation'];
const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

const zeroFigures = (): Figures => Object.fromEntries(FIGURES.map((f) => [f.key, 0])) as Figures;

/**
 * The whole report in one statement (one snapshot, one pass over the range):
 * the business's ledger transactions of the range (those it made, and the
 * business payouts others sent it), their entries, the figures per day and
 * currency, the trial balance and balance-chain breaks, and the cross-check
 * against payouts and payments, as rows of a few sections.
 */
function reportStatement(opts: ReconciliationOptions, range: DayRange) {
  const B = opts.businessId;
  const M = opts.mode;
  const tz = opts.timeZone;
  const start = range.start.toISOString();
  const end = range.end.toISOString();
  const within = (col: string) => sql`${sql.identifier(col)} >= ${start}::timestamptz AND ${sql.identifier(col)} < ${end}::timestamptz`;
  const dayOf = (col: string) => sql`to_char(${sql.identifier(col)} AT TIME ZONE ${tz}, 'YYYY-MM-DD')`;
  const currency = opts.currency ? sql`e.currency = ${opts.currency}` : sql`true`;
  const rowCurrency = opts.currency ? sql`currency = ${opts.currency}` : sql`true`;
  const f = (cond: string, col = 'own_in') => sql.raw(`coalesce(sum(${col}) FILTER (WHERE ${cond}), 0)`);
  return sql`
    WITH accounts AS MATERIALIZED (
      -- This business's accounts: its business accounts (by the unique name index) and its cards, cancelled ones included.
      SELECT ba.id FROM ledger_accounts ba
      WHERE ba.mode = ${M} AND ba.currency IN (${list(CURRENCIES)}) AND ba.name = ${`business:${B}`} AND ba.kind = 'business'
      UNION ALL
      SELECT c.account_id FROM cards c WHERE c.business_id = ${B} AND c.mode = ${M}
    ), bounds AS MATERIALIZED (
      SELECT ${entryBoundary(new Date(range.start.getTime() - STRAGGLER_MS))} AS lo,
             ${entryBoundary(new Date(range.end.getTime() + STRAGGLER_MS))} AS hi
    ), received AS MATERIALIZED (
      -- Transactions other businesses made that touch this business's accounts (business payouts to its business
      -- account, card-to-card payouts to its cards), found from those accounts' entries by (account_id, id) between
      -- the entries written an hour either side of the range (stragglers included), then by time exactly.
      SELECT DISTINCT x.transaction_id AS id FROM accounts a CROSS JOIN bounds b
      CROSS JOIN LATERAL (SELECT e.transaction_id FROM ledger_entries e WHERE e.account_id = a.id AND e.id >= b.lo AND e.id < b.hi) x
    ), tx AS MATERIALIZED (
      SELECT t.id, t.kind, t.reference, t.business_id = ${B} AS ours, ${dayOf('created_at')} AS day,
        CASE WHEN t.kind = 'payout_bank' THEN coalesce((SELECT p.bank_slug IN (${list(WALLETS)}) FROM payouts p
          WHERE p.reference = t.reference AND p.business_id = ${B} AND p.mode = ${M}), false) ELSE false END AS wallet
      FROM ledger_transactions t
      WHERE t.business_id = ${B} AND t.mode = ${M} AND ${within('created_at')}
      UNION ALL
      SELECT t.id, t.kind, t.reference, false, ${dayOf('created_at')}, false
      FROM received r JOIN ledger_transactions t ON t.id = r.id
      WHERE t.business_id IS DISTINCT FROM ${B} AND t.mode = ${M} AND ${within('created_at')}
    ), ent AS MATERIALIZED (
      SELECT tx.*, e.id AS entry_id, e.account_id, e.currency, e.amount, e.balance_after, a.kind AS account_kind, a.name AS account_name,
        (a.business_id = ${B} AND a.mode = ${M} AND a.kind IN ('card', 'business')) AS own
      FROM tx JOIN ledger_entries e ON e.transaction_id = tx.id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE ${currency}
    ), per_tx AS MATERIALIZED (
      SELECT id, kind, reference, ours, day, wallet, currency,
        sum(amount) AS total,
        coalesce(sum(-amount) FILTER (WHERE amount < 0), 0) AS debits,
        coalesce(sum(amount) FILTER (WHERE amount > 0), 0) AS credits,
        coalesce(sum(-amount) FILTER (WHERE own AND amount < 0), 0) AS own_out,
        coalesce(sum(amount) FILTER (WHERE own AND amount > 0), 0) AS own_in,
        coalesce(sum(amount) FILTER (WHERE account_kind = 'fee_revenue'), 0) AS fee,
        coalesce(bool_or(account_name = 'clearing:checkout'), false) AS hosted,
        -- A card-to-card payout that leaves the business or comes in from another one.
        (kind = 'payout_card_to_card' AND NOT (ours AND coalesce(bool_or(own AND amount > 0), false))) AS crossing
      FROM ent GROUP BY id, kind, reference, ours, day, wallet, currency
    ), days AS (
      SELECT day, currency, count(*) AS transactions,
        ${f("kind = 'payment' AND hosted")} AS "paymentsHosted",
        ${f("kind = 'payment' AND NOT hosted")} AS "paymentsWallet",
        ${f("kind = 'business_deposit'")} AS deposits,
        ${f("kind = 'payout_b2b' AND NOT ours")} AS "b2bReceived",
        ${f("kind = 'transfer_settlement'")} AS "topupsDelivered",
        ${f("kind = 'payout_card_to_card' AND NOT crossing")} AS "cardToCardReceived",
        ${f("kind = 'payout_card_to_card' AND crossing")} AS "cardToCardFromOthers",
        ${f("kind = 'card_cancellation'")} AS "cardsSweptIn",
        ${f("kind = 'payout_card_to_card' AND NOT crossing", 'own_out')} AS "cardToCardSent",
        ${f("kind = 'payout_card_to_card' AND crossing", 'own_out')} AS "cardToCardToOthers",
        ${f("kind = 'payout_bank' AND NOT wallet", 'own_out')} AS "bankPayouts",
        ${f("kind = 'payout_bank' AND wallet", 'own_out')} AS "walletPayouts",
        ${f("kind = 'payout_b2b' AND ours", 'own_out')} AS "b2bSent",
        ${f("kind = 'transfer'", 'own_out')} AS "topupsSent",
        ${f("kind = 'card_cancellation'", 'own_out')} AS "cardsEmptied",
        ${f("kind = 'payout_bank_reversal'")} AS "payoutsRefunded",
        ${f("kind = 'transfer_reversal'")} AS "topupsReturned",
        ${f("kind IN ('payout_card_to_card', 'payout_bank', 'payout_b2b') AND ours", 'fee')} AS "feesOnPayouts",
        ${f("kind = 'payment'", 'fee')} AS "feesOnPayments",
        ${f("kind = 'payout_bank_reversal'", '-fee')} AS "feesRefunded",
        coalesce(sum(own_in) FILTER (WHERE kind NOT IN (${list(KNOWN_KINDS)})), 0) AS "otherIn",
        coalesce(sum(own_out) FILTER (WHERE kind NOT IN (${list(KNOWN_KINDS)})), 0) AS "otherOut",
        sum(own_in - own_out) AS "netChange", sum(debits) AS debits, sum(credits) AS credits
      FROM per_tx GROUP BY day, currency
    ), unbalanced AS MATERIALIZED (
      SELECT day, currency, id, kind, reference, total FROM per_tx WHERE total <> 0
    ), chain AS MATERIALIZED (
      SELECT ent.day, ent.currency, ent.id, ent.kind, ent.reference, ent.entry_id, ent.account_kind,
        ent.balance_after - (coalesce(prev.balance_after, 0) + ent.amount) AS off_by
      FROM ent LEFT JOIN LATERAL (
        SELECT p.balance_after FROM ledger_entries p WHERE p.account_id = ent.account_id AND p.id < ent.entry_id ORDER BY p.id DESC LIMIT 1
      ) prev ON true
      WHERE ent.own AND ent.balance_after <> coalesce(prev.balance_after, 0) + ent.amount
    ), ledger_side AS (
      SELECT id, kind, reference, day, currency, c.check_name,
        CASE WHEN c.check_name IN ('payout', 'topup_sent') THEN own_out ELSE own_in END AS amount,
        CASE WHEN c.check_name = 'payout_refund' THEN -fee WHEN c.check_name IN ('topup_sent', 'topup_delivered', 'topup_returned') THEN 0 ELSE fee END AS fee
      FROM per_tx CROSS JOIN LATERAL (SELECT CASE
        WHEN kind = 'payment' THEN 'payment'
        WHEN kind IN ('payout_card_to_card', 'payout_bank', 'payout_b2b') AND ours THEN 'payout'
        WHEN kind = 'payout_b2b' THEN 'b2b_received'
        WHEN kind = 'payout_card_to_card' THEN 'card_to_card_received'
        WHEN kind = 'payout_bank_reversal' THEN 'payout_refund'
        WHEN kind = 'transfer' THEN 'topup_sent'
        WHEN kind = 'transfer_settlement' THEN 'topup_delivered'
        WHEN kind = 'transfer_reversal' THEN 'topup_returned'
      END AS check_name) c
      WHERE c.check_name IS NOT NULL
    ), ops AS MATERIALIZED (
      SELECT payouts.id, payouts.business_id, payouts.payout_type, payouts.reference, payouts.currency, payouts.status, payouts.is_ledger_topup, payouts.amount,
        payouts.service_fee, payouts.created_at, payouts.completed_at, ${payoutNetSql()} AS net
      FROM payouts
      WHERE payouts.id IN (
        SELECT p.id FROM payouts p WHERE p.business_id = ${B} AND p.mode = ${M} AND p.created_at >= ${start}::timestamptz AND p.created_at < ${end}::timestamptz
        UNION
        SELECT p.id FROM payouts p WHERE p.mode = ${M}
          AND p.reference IN (SELECT reference FROM tx WHERE kind IN (${list(PAYOUT_KINDS)}) AND reference IS NOT NULL)
          AND (p.business_id = ${B} OR (p.payout_type = 'b2b' AND p.merchant_id = (SELECT merchant_id FROM businesses WHERE id = ${B}))
            OR (p.payout_type = 'card_to_card' AND p.reference IN (SELECT reference FROM tx WHERE NOT ours)))
      ) AND ${rowCurrency}
    ), rows_side AS (
      SELECT 'payout' AS check_name, reference, currency, ${dayOf('created_at')} AS day, net AS amount, service_fee AS fee
      FROM ops WHERE business_id = ${B} AND NOT is_ledger_topup AND ${within('created_at')}
      UNION ALL
      SELECT 'payout_refund', reference, currency, ${dayOf('completed_at')}, net, service_fee
      FROM ops WHERE business_id = ${B} AND NOT is_ledger_topup AND status = 'failed' AND ${within('completed_at')}
      UNION ALL
      SELECT 'topup_sent', reference, currency, ${dayOf('created_at')}, amount, 0
      FROM ops WHERE business_id = ${B} AND is_ledger_topup AND ${within('created_at')}
      UNION ALL
      SELECT 'topup_delivered', reference, currency, ${dayOf('completed_at')}, amount, 0
      FROM ops WHERE business_id = ${B} AND is_ledger_topup AND status = 'success' AND ${within('completed_at')}
      UNION ALL
      SELECT 'topup_returned', reference, currency, ${dayOf('completed_at')}, amount, 0
      FROM ops WHERE business_id = ${B} AND is_ledger_topup AND status = 'failed' AND ${within('completed_at')}
      UNION ALL
      SELECT 'b2b_received', reference, currency, ${dayOf('created_at')}, net - service_fee, service_fee
      FROM ops WHERE business_id <> ${B} AND payout_type = 'b2b' AND status = 'success' AND ${within('created_at')}
      UNION ALL
      SELECT 'card_to_card_received', reference, currency, ${dayOf('created_at')}, net - service_fee, service_fee
      FROM ops WHERE business_id <> ${B} AND payout_type = 'card_to_card' AND status = 'success' AND ${within('created_at')}
      UNION ALL
      SELECT 'payment', link_reference, currency, ${dayOf('completed_at')}, amount, service_fee
      FROM payments
      WHERE id IN (
        SELECT p.id FROM payments p WHERE p.business_id = ${B} AND p.mode = ${M} AND p.created_at >= ${start}::timestamptz AND p.created_at < ${end}::timestamptz
        UNION
        SELECT p.id FROM payments p WHERE p.link_reference IN (SELECT reference FROM tx WHERE kind = 'payment' AND reference IS NOT NULL)
          AND p.business_id = ${B} AND p.mode = ${M}
      ) AND status = 'success' AND ${within('completed_at')} AND ${rowCurrency}
    ), checked AS MATERIALIZED (
      SELECT coalesce(l.check_name, r.check_name) AS check_name, coalesce(l.reference, r.reference) AS reference,
        coalesce(l.day, r.day) AS day, coalesce(l.currency, r.currency) AS currency, l.id, l.kind,
        l.amount AS ledger_amount, r.amount AS rows_amount, l.fee AS ledger_fee, r.fee AS rows_fee
      FROM ledger_side l FULL JOIN rows_side r ON r.check_name = l.check_name AND r.reference = l.reference
    ), mismatch AS MATERIALIZED (
      SELECT * FROM checked WHERE ledger_amount IS DISTINCT FROM rows_amount OR ledger_fee IS DISTINCT FROM rows_fee
    )
    SELECT 'day' AS section, to_jsonb(d) AS data FROM days d
    UNION ALL
    -- Whether a day reconciles is decided from these counts, never from the capped list of details.
    SELECT 'problems', jsonb_build_object('day', day, 'currency', currency, 'count', count(*)) FROM (
      SELECT day, currency FROM unbalanced UNION ALL SELECT day, currency FROM chain UNION ALL SELECT day, currency FROM mismatch
    ) p GROUP BY day, currency
    UNION ALL SELECT 'unbalanced', to_jsonb(u) FROM (SELECT * FROM unbalanced ORDER BY id LIMIT ${PROBLEM_LIMIT + 1}) u
    UNION ALL SELECT 'chain', to_jsonb(c) FROM (SELECT * FROM chain ORDER BY entry_id LIMIT ${PROBLEM_LIMIT + 1}) c
    UNION ALL
    SELECT 'check', jsonb_build_object('day', day, 'currency', currency, 'check', check_name,
      'ledger', coalesce(sum(ledger_amount), 0), 'rows', coalesce(sum(rows_amount), 0),
      'ledgerFee', coalesce(sum(ledger_fee), 0), 'rowsFee', coalesce(sum(rows_fee), 0),
      'ledgerCount', count(id), 'rowsCount', count(rows_amount))
    FROM checked GROUP BY day, currency, check_name
    UNION ALL
    SELECT 'mismatch', to_jsonb(m) FROM (SELECT * FROM mismatch ORDER BY day, id LIMIT ${PROBLEM_LIMIT + 1}) m`;
}

const money = (v: unknown) => Number(v ?? 0);
const kindWords = (kind: string | null) => (kind ? kind.replaceAll('_', ' ') : 'no ledger transaction');

function mismatchProblem(m: Record<string, unknown>, currency: string): ReconciliationProblem {
  const noun = CHECK_NOUNS[m.check_name as CrossCheck];
  const base = {
    transactionId: m.id === null ? null : Number(m.id),
    ledgerKind: (m.kind as string | null) ?? null,
    reference: (m.reference as string) ?? null,
  };
  const ledger = money(m.ledger_amount);
  const rows = money(m.rows_amount);
  if (m.id === null) {
    return {
      ...base,
      problem: 'no_ledger',
      offBy: -rows,
      detail: `This ${noun} row has no ledger transaction: ${unitsText(rows)} ${currency} is missing from the ledger.`,
    };
  }
  if (m.rows_amount === null) {
    return { ...base, problem: 'no_row', offBy: ledger, detail: `The ledger moved ${unitsText(ledger)} ${currency} as a ${noun} with no matching row.` };
  }
  const amountOff = ledger - rows;
  const feeOff = money(m.ledger_fee) - money(m.rows_fee);
  const parts = [
    amountOff ? `the amount is ${unitsText(ledger)} in the ledger and ${unitsText(rows)} on the ${noun} row` : '',
    feeOff ? `the fee is ${unitsText(money(m.ledger_fee))} in the ledger and ${unitsText(money(m.rows_fee))} on the ${noun} row` : '',
  ].filter(Boolean);
  return { ...base, problem: 'rows_differ', offBy: amountOff || feeOff, detail: `${parts.join('; ')} (${currency}).` };
}

/**
 * The daily reconciliation of a business and mode over a range of its days:
 * money in and out by type, reversals and fees from the ledger; the trial
 * balance and the balance chain of its accounts; and the ledger checked
 * against the payouts and payments tables, transaction by transaction.
 */
export async function reconciliationReport(db: DbOrTx, opts: ReconciliationOptions): Promise<ReconciliationReport> {
  const range = dayRangeOf(opts.from, opts.to, opts.timeZone);
  const result = await reportRead(db, (tx) => tx.execute<{ section: string; data: Record<string, unknown> }>(reportStatement(opts, range)));
  const days = new Map<string, ReconciliationDay>();
  const dayOf = (day: string, currency: string) => {
    const key = `${day}|${currency}`;
    let d = days.get(key);
    if (!d) {
      d = { day, currency: currency as Currency, transactions: 0, figures: zeroFigures(), checks: [], problems: [], problemCount: 0, reconciles: true };
      days.set(key, d);
    }
    return d;
  };
  let truncated = false;
  const counts = { unbalanced: 0, chain: 0, mismatch: 0 };
  for (const { section, data } of result.rows) {
    const d = dayOf(data.day as string, data.currency as string);
    if (section === 'day') {
      d.transactions = Number(data.transactions);
      for (const fig of FIGURES) d.figures[fig.key] = money(data[fig.key]);
    } else if (section === 'problems') {
      d.problemCount = Number(data.count);
    } else if (section === 'check') {
      d.checks.push({
        check: data.check as CrossCheck,
        ledger: money(data.ledger),
        rows: money(data.rows),
        ledgerFee: money(data.ledgerFee),
        rowsFee: money(data.rowsFee),
        ledgerCount: Number(data.ledgerCount),
        rowsCount: Number(data.rowsCount),
      });
    } else if (section === 'unbalanced' || section === 'chain' || section === 'mismatch') {
      if (++counts[section] > PROBLEM_LIMIT) {
        truncated = true;
        continue;
      }
      const base = { transactionId: Number(data.id), ledgerKind: data.kind as string, reference: (data.reference as string | null) ?? null };
      if (section === 'unbalanced') {
        d.problems.push({
          ...base,
          problem: 'unbalanced',
          offBy: money(data.total),
          detail: `Its entries sum to ${unitsText(money(data.total))} ${d.currency}, not zero: the transaction does not balance.`,
        });
      } else if (section === 'chain') {
        d.problems.push({
          ...base,
          problem: 'balance_chain',
          offBy: money(data.off_by),
          detail: `Entry ${data.entry_id} on a ${data.account_kind === 'business' ? 'business account' : 'card'}: its balance after is off by ${unitsText(money(data.off_by))} from the previous balance plus its amount.`,
        });
      } else {
        d.problems.push(mismatchProblem(data, d.currency));
      }
    }
  }
  const ordered = [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || CURRENCIES.indexOf(a.currency) - CURRENCIES.indexOf(b.currency));
  const totals = new Map<Currency, ReconciliationReport['totals'][number]>();
  for (const d of ordered) {
    d.checks.sort((a, b) => Object.keys(CROSS_CHECKS).indexOf(a.check) - Object.keys(CROSS_CHECKS).indexOf(b.check));
    d.problems.sort((a, b) => PROBLEM_ORDER.indexOf(a.problem) - PROBLEM_ORDER.indexOf(b.problem) || (a.transactionId ?? 0) - (b.transactionId ?? 0));
    d.reconciles = d.problemCount === 0 && d.figures.debits === d.figures.credits;
    let t = totals.get(d.currency);
    if (!t) {
      t = { currency: d.currency, figures: zeroFigures(), transactions: 0, reconciles: true };
      totals.set(d.currency, t);
    }
    t.transactions += d.transactions;
    t.reconciles &&= d.reconciles;
    for (const fig of FIGURES) t.figures[fig.key] += d.figures[fig.key];
  }
  return { range, currency: opts.currency, days: ordered, totals: [...totals.values()], truncated };
}

export interface ReconciliationParams {
  from: string;
  to: string;
  currency?: Currency;
}

/** The report's choices from the URL: this month so far by default, at most MAX_RECONCILIATION_DAYS days, any or one currency. */
export function parseReconciliationParams(params: ReportParams, timeZone: string, now = new Date()) {
  const { value, errors, today } = parseRangeParams(params, timeZone, { now, maxDays: MAX_RECONCILIATION_DAYS });
  const currency = parseCurrencyParam(params, errors);
  return { value: { ...value, currency } as ReconciliationParams, errors: errors as FieldErrors, today };
}

/** For the export: bad input is a 400 naming the field. */
export function requireReconciliationParams(params: ReportParams, timeZone: string, now = new Date()): ReconciliationParams {
  const { value, errors } = parseReconciliationParams(params, timeZone, now);
  if (Object.keys(errors).length) throw new ServiceError('validation_error', errors);
  return value;
}

const problemText = (p: ReconciliationProblem) =>
  `transaction ${p.transactionId ?? 'none'} (${kindWords(p.ledgerKind)}${p.reference ? `, ${p.reference}` : ''}) off by ${unitsText(p.offBy)}: ${p.detail}`;

/**
 * The report as CSV: a line per day and currency, then a total line per
 * currency. Every figure in currency units and in minor units; the day is the
 * business's, named by its zone; a day that does not reconcile lists the
 * transactions that break it.
 */
export async function reconciliationCsvFile(db: DbOrTx, opts: ReconciliationOptions) {
  const report = await reconciliationReport(db, opts);
  const header = csvLine([
    'line',
    `day (${opts.timeZone})`,
    'currency',
    'reconciles',
    'transactions',
    ...FIGURES.map((f) => f.csv),
    ...FIGURES.map((f) => `${f.csv}_minor`),
    'problems',
  ]);
  const line = (kind: 'day' | 'total', day: string, currency: string, reconciles: boolean, transactions: number, figures: Figures, problems: string) =>
    csvLine([
      kind,
      day,
      currency,
      reconciles ? 'yes' : 'no',
      transactions,
      ...FIGURES.map((f) => unitsText(figures[f.key])),
      ...FIGURES.map((f) => figures[f.key]),
      problems,
    ]);
  return {
    header,
    chunks: (async function* () {
      yield report.days.map((d) => line('day', d.day, d.currency, d.reconciles, d.transactions, d.figures, d.problems.map(problemText).join(' | '))).join('');
      yield report.totals
        .map((t) =>
          line('total', `${opts.from} to ${opts.to}`, t.currency, t.reconciles, t.transactions, t.figures, report.truncated ? 'more problems than listed' : ''),
        )
        .join('');
    })(),
  };
}
