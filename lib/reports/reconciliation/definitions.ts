import { ServiceError, type FieldErrors } from '../../errors';
import type { Currency, Mode } from '../../validation';
import { parseCurrencyParam, parseRangeParams, type DayRange, type ReportParams } from '../report-range';

/** The longest range one report reads: a year and a day. */
export const MAX_RECONCILIATION_DAYS = 366;

export type FigureGroup = 'in' | 'out' | 'reversals' | 'fees' | 'ledger';

/**
 * Every figure of a day, with its meaning in words: the page's definitions
 * and the CSV's headers both come from here. Amounts are what moved on this
 * business's own ledger accounts (its cards, its business account and its breakage account), except
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
    key: 'breakageRecognised',
    group: 'in',
    label: 'Breakage recognised',
    csv: 'breakage_recognised',
    onPage: true,
    text: 'What expired cards held when they expired, moved to the business’s breakage account: no longer owed to anyone. The same amount appears as expired cards emptied.',
  },
  {
    key: 'adjustmentsIn',
    group: 'in',
    label: 'Adjustments in',
    csv: 'adjustments_in',
    onPage: true,
    text: 'Approved manual adjustments: what they added to cards (from the business account) or gave back to the business account (from a card). The same amounts appear under adjustments out: they move money within the business.',
  },
  {
    key: 'redemptionsIn',
    group: 'in',
    label: 'Redemptions received',
    csv: 'redemptions_received',
    onPage: true,
    text: 'Cards spent at this business (its till or its dashboard): what reached the business account, the amount less the redemption fee. The same redemptions appear under cards redeemed.',
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
    key: 'cardsExpired',
    group: 'out',
    label: 'Expired cards emptied',
    csv: 'expired_cards_emptied',
    onPage: false,
    text: 'What cards held when they expired, moved to the breakage account.',
  },
  {
    key: 'paymentsRefunded',
    group: 'out',
    label: 'Payments refunded',
    csv: 'payments_refunded',
    onPage: true,
    text: 'Refunds of paid top-ups: what left the cards (or the business account, for a card cancelled since) to repay the payer. The payer’s fee is not refunded.',
  },
  {
    key: 'adjustmentsOut',
    group: 'out',
    label: 'Adjustments out',
    csv: 'adjustments_out',
    onPage: true,
    text: 'The other side of approved manual adjustments: what left the business account for a card, or a card for the business account.',
  },
  {
    key: 'redemptionsOut',
    group: 'out',
    label: 'Cards redeemed',
    csv: 'cards_redeemed',
    onPage: true,
    text: 'What left cards when they were spent at this business; it reached the business account less the fee (redemptions received).',
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
    key: 'refundsReturned',
    group: 'reversals',
    label: 'Refunds returned',
    csv: 'refunds_returned',
    onPage: true,
    text: 'Refunds the payment provider refused, given back whole to the card or, when it was cancelled or disabled, to the business account.',
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
  {
    key: 'feesOnRedemptions',
    group: 'fees',
    label: 'Fees on redemptions',
    csv: 'fees_on_redemptions',
    onPage: true,
    text: 'The provider’s fees on redemptions, paid by the business out of what it received.',
  },
  { key: 'feesRefunded', group: 'fees', label: 'Fees refunded', csv: 'fees_refunded', onPage: true, text: 'Fees given back with failed payouts.' },
  {
    key: 'otherIn',
    group: 'ledger',
    label: 'Other in',
    csv: 'other_in',
    onPage: false,
    text: 'Movements of any other kind into this business’s accounts, such as money held for an approval and its release (held money stays the business’s).',
  },
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

/**
 * What a branch's reconciliation shows: spends (redemptions, a till's captured holds among them) happen at a branch;
 * payments, payouts, deposits, refunds and the rest do not, so a branch's report counts its spends alone.
 */
export const BRANCH_FIGURES: readonly FigureKey[] = ['redemptionsOut', 'feesOnRedemptions', 'redemptionsIn'];

/** A branch of the business, or 'none': the spends recorded at no branch. */
type BranchFilter = number | 'none';

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
  payment_refund: 'Refunds of payments made that day, whatever their status since: what left the card.',
  refund_returned: 'Refunds the provider refused that day: what came back.',
} as const;
export type CrossCheck = keyof typeof CROSS_CHECKS;

/** What one row of each check is called in a sentence. */
export const CHECK_NOUNS: Record<CrossCheck, string> = {
  payment: 'payment',
  payout: 'payout',
  payout_refund: 'failed payout',
  topup_sent: 'ledger top-up',
  topup_delivered: 'delivered top-up',
  topup_returned: 'returned top-up',
  b2b_received: 'business payout received',
  card_to_card_received: 'card-to-card received from another business',
  payment_refund: 'refund',
  refund_returned: 'refused refund',
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

export const PROBLEM_ORDER = ['unbalanced', 'balance_chain', 'rows_differ', 'no_row', 'no_ledger'] as const;
export type ProblemKind = (typeof PROBLEM_ORDER)[number];

export interface ReconciliationProblem {
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
  /** The branch read, when one was chosen: then only its spends are counted. */
  branch?: { id: number; name: string } | 'none';
}

export interface ReconciliationOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  from: string;
  to: string;
  currency?: Currency;
  /** Only the spends recorded at this branch (another business's is not found), or at none. */
  location?: BranchFilter;
}

export interface ReconciliationParams {
  from: string;
  to: string;
  currency?: Currency;
  location?: BranchFilter;
}

/** The report's choices from the URL: this month so far by default, at most MAX_RECONCILIATION_DAYS days, any or one currency. */
export function parseReconciliationParams(params: ReportParams, timeZone: string, now = new Date()) {
  const { value, errors, today } = parseRangeParams(params, timeZone, { now, maxDays: MAX_RECONCILIATION_DAYS });
  const currency = parseCurrencyParam(params, errors);
  const raw = Array.isArray(params.location) ? params.location[0] : params.location;
  const location = raw === 'none' ? 'none' : raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined;
  if (raw && location === undefined) errors.location = 'Choose a branch from the list.';
  return { value: { ...value, currency, location } as ReconciliationParams, errors: errors as FieldErrors, today };
}

/** For the export: bad input is a 400 naming the field. */
export function requireReconciliationParams(params: ReportParams, timeZone: string, now = new Date()): ReconciliationParams {
  const { value, errors } = parseReconciliationParams(params, timeZone, now);
  if (Object.keys(errors).length) throw new ServiceError('validation_error', errors);
  return value;
}
