import { dayIn, isCalendarDay, nextDay, zonedDayStart } from '../../time-zone';
import { ServiceError, type FieldErrors } from '../../errors';
import { CURRENCIES, type Currency, type Mode } from '../../validation';
import { ethiopicRange } from '../../i18n/ethiopic-range';
import { one } from '../report-range';

/** The liability reports' terms: age buckets, the as-of day, the dormant list's shape, and the choices a URL may make. */

/** Age buckets by calendar days since a card's last ledger movement; the last one is open-ended. */
export const AGE_BUCKETS = [
  { key: '0-30', label: '0–30 days', from: 0, to: 30 },
  { key: '31-90', label: '31–90 days', from: 31, to: 90 },
  { key: '91-180', label: '91–180 days', from: 91, to: 180 },
  { key: '181-365', label: '181–365 days', from: 181, to: 365 },
  { key: 'over-365', label: 'Over 365 days', from: 366, to: null },
] as const;
type AgeBucketKey = (typeof AGE_BUCKETS)[number]['key'];

const DEFAULT_DORMANT_DAYS = 365;
const MAX_DORMANT_DAYS = 3650;

export interface LiabilityScope {
  businessId: number;
  mode: Mode;
  timeZone: string;
}

/**
 * "As of the end of" a calendar day in the business's zone: every ledger entry
 * written before the next day begins counts, none after.
 */
export interface AsOf {
  day: string;
  end: Date;
}

/** The end of the day; `at`, when earlier, stands in for it (an export reads today as of the instant it started). */
export function asOfDay(day: string, timeZone: string, at?: Date): AsOf {
  const end = zonedDayStart(nextDay(day), timeZone);
  return { day, end: at && at < end ? at : end };
}

export interface LiabilityOptions extends LiabilityScope {
  day: string;
  /** A card is dormant when its last movement is more than this many days before the as-of day. */
  dormantDays: number;
  /** Read at this instant instead of the day's end when it is earlier (see asOfDay). */
  at?: Date;
}

interface BucketTotal {
  key: AgeBucketKey;
  cards: number;
  balance: number;
}

export interface CurrencyLiability {
  currency: Currency;
  /** Cards holding a balance at the end of the day, and what they hold. */
  cards: number;
  balance: number;
  buckets: BucketTotal[];
  /** The part of it on cards dormant for more than dormantDays. */
  dormantCards: number;
  dormantBalance: number;
  /** Sum of ledger_accounts.balance of the same cards now: equals balance when the day is today. */
  ledgerBalanceNow: number;
  /** Card money held for an approval at the day's end: still owed to the holders, but not in their balances (lib/holds/). */
  heldForApproval: number;
}

export interface LiabilityReport {
  asOf: AsOf;
  dormantDays: number;
  /** True when the day is today in the business's zone: the figures are the current balances. */
  isToday: boolean;
  currencies: CurrencyLiability[];
}

export interface DormantCard {
  id: number;
  cardNumber: string;
  currency: Currency;
  balance: number;
  lastActivityAt: Date;
  /** Calendar days from the last movement to the as-of day. */
  daysSinceActivity: number;
  /** The holder's name as this business gave it; empty when it gave none. */
  holderName: string;
}

export interface DormantCardsOptions extends LiabilityOptions {
  currency?: Currency;
  after?: string;
  before?: string;
  limit: number;
}

export interface DormantCardsPage {
  items: DormantCard[];
  /** Cursor of the next page (smaller balances), when there is one. */
  next: string | null;
  prev: string | null;
}

export interface LiabilityParams {
  day: string;
  dormantDays: number;
  currency?: Currency;
  after?: string;
  before?: string;
}

type Params = Record<string, string | string[] | undefined>;

/**
 * The report's choices from the URL: the as-of day (today in the zone by
 * default; never in the future), the dormancy window in days and the dormant
 * list's currency. Bad values come back as messages keyed by field, with
 * defaults in their place, so a page can say what was wrong and still show.
 */
export function parseLiabilityParams(params: Params, timeZone: string, now = new Date()): { value: LiabilityParams; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const today = dayIn(timeZone, now);
  let day = today;
  // An Ethiopian month or fiscal year is read as its last day (today at most).
  const period = ethiopicRange({ eth_month: one(params.eth_month), eth_year: one(params.eth_year) }, today);
  const rawDay = period?.to ?? one(params.day);
  if (rawDay) {
    if (!isCalendarDay(rawDay)) {
      errors.day = 'Enter the day as YYYY-MM-DD, for example 2026-10-31.';
    } else if (rawDay > today) {
      errors.day = `The day cannot be after today (${today}): the ledger has nothing from the future.`;
    } else if (rawDay < '2000-01-01') {
      errors.day = 'Choose a day from 2000 on.';
    } else {
      day = rawDay;
    }
  }
  let dormantDays = DEFAULT_DORMANT_DAYS;
  const rawDormant = one(params.dormant);
  if (rawDormant) {
    const n = Number(rawDormant);
    if (!/^\d{1,5}$/.test(rawDormant) || n < 1 || n > MAX_DORMANT_DAYS) errors.dormant = `Enter a whole number of days from 1 to ${MAX_DORMANT_DAYS}.`;
    else dormantDays = n;
  }
  let currency: Currency | undefined;
  const rawCurrency = one(params.currency)?.toUpperCase();
  if (rawCurrency) {
    if (CURRENCIES.includes(rawCurrency as Currency)) currency = rawCurrency as Currency;
    else errors.currency = `Currency must be one of ${CURRENCIES.join(', ')}.`;
  }
  return { value: { day, dormantDays, currency, after: one(params.after), before: one(params.before) }, errors };
}

/** For the exports: bad input is a 400 with the field's message, never a file of the wrong figures. */
export function requireLiabilityParams(params: Params, timeZone: string, now = new Date()): LiabilityParams {
  const { value, errors } = parseLiabilityParams(params, timeZone, now);
  if (Object.keys(errors).length) throw new ServiceError('validation_error', errors);
  return value;
}
