import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { PaymentProvider } from '../providers/provider-port';
import type { ListedPayment, ListedTransfer, Listing } from '../providers/provider-records';
import type { Currency } from '../validation';
import { dayRangeOf } from './report-range';
import type { ReconciliationOptions } from './reconciliation/definitions';

/** Why one of ours and the provider's record of it disagree; the page words each in the reader's language, the CSV in English (differenceText). */
export type DifferenceCode =
  | 'cutShort'
  | 'transferNotListed'
  | 'transferDropped'
  | 'otherAmount'
  | 'otherCurrency'
  | 'settledButSays'
  | 'refundedButPaid'
  | 'pendingButSays'
  | 'paymentNotListed'
  | 'otherAmountPaid'
  | 'creditedButSays'
  | 'paidButHere';

interface ProviderDifference {
  kind: 'transfer' | 'payment';
  reference: string;
  day: string;
  currency: Currency;
  ours: { status: string; amount: number };
  theirs: { status: string; amount: number | null } | null;
  code: DifferenceCode;
  /** The same in English, naming the provider. */
  detail: string;
}

/** One day and currency: our payouts and payments through the provider against what it holds for the same references. */
interface ProviderDay {
  day: string;
  currency: Currency;
  transfers: number;
  /** What our ledger paid out through the provider and settled, in minor units (what the destinations receive). */
  oursSettled: number;
  /** What the provider says it paid for the same references; null when its list of transfers could not be read. */
  theirsSettled: number | null;
  /** Payments through the provider, what our ledger credited for them (amount and fee, what the customer paid) and what it says was paid (null: not read). */
  payments: number;
  oursReceived: number;
  theirsReceived: number | null;
  differences: ProviderDifference[];
}

/** One of the provider's two listings that could not be read: its side is left uncompared, the other side still is. */
export interface UnreadListing {
  listing: 'transfers' | 'payments';
  reason: string;
}

export interface ProviderReconciliation {
  /** The provider's name as staff read it. */
  provider: string;
  /** Its name in the CSV's column names. */
  column: string;
  complete: boolean;
  days: ProviderDay[];
  unread: UnreadListing[];
}

/** The English of each listing's name and each difference, for the CSV. */
export const listingName = (listing: UnreadListing['listing'], provider: string) =>
  listing === 'transfers' ? `${provider}’s list of transfers (our payouts)` : `${provider}’s list of transactions (our payments)`;

export function differenceText(code: DifferenceCode, provider: string, theirs: string, ours: string): string {
  const says = theirs || 'nothing';
  const words: Record<DifferenceCode, string> = {
    cutShort: `${provider}’s listing was cut short before this reference (too many pages to read); not compared.`,
    transferNotListed: `We paid it out, but ${provider} lists no transfer with this reference.`,
    transferDropped: `${provider} took this transfer but no longer lists it.`,
    otherAmount: `${provider} lists a different amount.`,
    otherCurrency: `${provider} lists a different currency.`,
    settledButSays: `We settled it as paid; ${provider} says ${says}.`,
    refundedButPaid: `We refunded it, but ${provider} says it was paid.`,
    pendingButSays: `Still pending here; ${provider} says ${theirs}.`,
    paymentNotListed: `We credited it, but ${provider} lists no payment with this reference.`,
    otherAmountPaid: `${provider} lists a different amount paid.`,
    creditedButSays: `We credited it; ${provider} says ${says}.`,
    paidButHere: `${provider} says it was paid; here it is ${ours}.`,
  };
  return words[code];
}

type OurTransfer = {
  reference: string;
  amount: number;
  currency: Currency;
  status: 'pending' | 'success' | 'failed';
  state: string;
  day: string;
  /** When the row or its payout last changed: a listing read before that may not show it yet. */
  changed_at: string;
};

/** When a listing was read and whether to its end. */
type ListingRead = { complete: boolean; readAt: Date };

/** A row that changed after the listing was read is compared on a later read, not against an older picture of the provider's. */
const newerThan = (listing: ListingRead, changedAt: string) => new Date(changedAt).getTime() > listing.readAt.getTime();

/** Why one of our transfers and the provider's record of it disagree, or null when they agree (or cannot yet). */
function difference(ours: OurTransfer, theirs: ListedTransfer | undefined, listing: ListingRead): DifferenceCode | null {
  if (newerThan(listing, ours.changed_at)) return null;
  if (!theirs) {
    const missing = transferMissing(ours);
    return missing && !listing.complete ? 'cutShort' : missing;
  }
  if (theirs.amount !== null && theirs.amount !== ours.amount) return 'otherAmount';
  if (theirs.currency !== null && theirs.currency !== ours.currency) return 'otherCurrency';
  if (ours.status === 'success' && theirs.state !== 'success') return 'settledButSays';
  if (ours.status === 'failed' && theirs.state === 'success') return 'refundedButPaid';
  if (ours.status === 'pending' && theirs.state !== null && theirs.state !== 'pending') return 'pendingButSays';
  return null;
}

function transferMissing(ours: OurTransfer): DifferenceCode | null {
  if (ours.status === 'success') return 'transferNotListed';
  // Refused by the provider, or still queued for sending: its not knowing it is expected.
  if (ours.status === 'failed' || ours.state === 'queued' || ours.state === 'sending') return null;
  return 'transferDropped';
}

type OurPayment = {
  reference: string;
  /** What the customer pays: the amount and the service fee, as the provider was asked for. */
  paid: number;
  currency: Currency;
  status: string;
  day: string;
  changed_at: string;
};

function paymentDifference(ours: OurPayment, theirs: ListedPayment | undefined, listing: ListingRead): DifferenceCode | null {
  if (newerThan(listing, ours.changed_at)) return null;
  if (!theirs) return ours.status !== 'success' ? null : listing.complete ? 'paymentNotListed' : 'cutShort';
  if (theirs.amount !== null && theirs.paid && theirs.amount !== ours.paid) return 'otherAmountPaid';
  if (ours.status === 'success' && !theirs.paid) return 'creditedButSays';
  if (ours.status !== 'success' && theirs.paid) return 'paidButHere';
  return null;
}

/** The provider a reconciliation compares with: the mode's, from the registry. */
export type ReconciledProvider = Pick<PaymentProvider, 'name' | 'label' | 'records'>;

/**
 * The provider column of the daily reconciliation: each day's transactions
 * and transfers the provider lists against our ledger's payments and payouts
 * through it. Only this business's own references are compared, so nothing of
 * another business on the same provider account shows. Null when the mode has
 * no provider, or one that keeps no listings of its own (the sandbox).
 */
export async function providerReconciliation(
  db: Db,
  provider: ReconciledProvider | undefined,
  opts: ReconciliationOptions,
): Promise<ProviderReconciliation | null> {
  const listings = provider?.records.listings();
  if (!provider || !listings) return null;
  const range = dayRangeOf(opts.from, opts.to, opts.timeZone);
  const rows = await db.execute<OurTransfer>(sql`
    SELECT r.reference, r.amount, r.currency, p.status, r.state, to_char(r.created_at AT TIME ZONE ${opts.timeZone}, 'YYYY-MM-DD') AS day,
      greatest(r.created_at, p.updated_at)::text AS changed_at
    FROM rail_requests r JOIN payouts p ON p.id = r.payout_id
    WHERE r.business_id = ${opts.businessId} AND r.mode = ${opts.mode} AND r.provider = ${provider.name}
      AND r.created_at >= ${range.start.toISOString()}::timestamptz AND r.created_at < ${range.end.toISOString()}::timestamptz
      ${opts.currency ? sql`AND r.currency = ${opts.currency}` : sql``}
    ORDER BY r.created_at, r.id`);
  // A payment the provider was asked about (verified, charged or given a checkout page); the mode's payments have no other provider.
  const paymentRows = await db.execute<OurPayment>(sql`
    SELECT link_reference AS reference, amount + service_fee AS paid, currency, status, to_char(created_at AT TIME ZONE ${opts.timeZone}, 'YYYY-MM-DD') AS day,
      greatest(created_at, updated_at)::text AS changed_at
    FROM payments
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND (verify_state IS NOT NULL OR provider_request_id IS NOT NULL OR provider_checkout_url IS NOT NULL)
      AND created_at >= ${range.start.toISOString()}::timestamptz AND created_at < ${range.end.toISOString()}::timestamptz
      ${opts.currency ? sql`AND currency = ${opts.currency}` : sql``}
    ORDER BY created_at, id`);
  const report = { provider: provider.label, column: provider.name };
  if (rows.rows.length === 0 && paymentRows.rows.length === 0) return { ...report, complete: true, days: [], unread: [] };
  const none = { ok: true as const, entries: [], complete: true, readAt: new Date() };
  const [listed, listedPayments]: [Listing<ListedTransfer>, Listing<ListedPayment>] = await Promise.all([
    rows.rows.length > 0 ? listings.transfers() : none,
    paymentRows.rows.length > 0 ? listings.payments() : none,
  ]);
  const unread: UnreadListing[] = [];
  if (!listed.ok) unread.push({ listing: 'transfers', reason: listed.reason });
  if (!listedPayments.ok) unread.push({ listing: 'payments', reason: listedPayments.reason });
  const days = new Map<string, ProviderDay>();
  const dayOf = (d: string, currency: Currency) => {
    const key = `${d} ${currency}`;
    let day = days.get(key);
    if (!day) {
      day = {
        day: d,
        currency,
        transfers: 0,
        oursSettled: 0,
        theirsSettled: listed.ok ? 0 : null,
        payments: 0,
        oursReceived: 0,
        theirsReceived: listedPayments.ok ? 0 : null,
        differences: [],
      };
      days.set(key, day);
    }
    return day;
  };
  const differenceOf = (
    kind: ProviderDifference['kind'],
    ours: { reference: string; day: string; currency: Currency; status: string },
    amount: number,
    theirs: { status: string; amount: number | null } | undefined,
    code: DifferenceCode,
  ): ProviderDifference => ({
    kind,
    reference: ours.reference,
    day: ours.day,
    currency: ours.currency,
    ours: { status: ours.status, amount },
    theirs: theirs ? { status: theirs.status, amount: theirs.amount } : null,
    code,
    detail: differenceText(code, provider.label, theirs?.status ?? '', ours.status),
  });
  const byPaymentReference = new Map(listedPayments.ok ? listedPayments.entries.map((t) => [t.reference, t]) : []);
  for (const raw of paymentRows.rows) {
    const ours = { ...raw, paid: Number(raw.paid) };
    const day = dayOf(ours.day, ours.currency);
    day.payments += 1;
    if (ours.status === 'success') day.oursReceived += ours.paid;
    if (!listedPayments.ok || day.theirsReceived === null) continue;
    const theirs = byPaymentReference.get(ours.reference);
    if (theirs?.paid) day.theirsReceived += theirs.amount ?? 0;
    const code = paymentDifference(ours, theirs, listedPayments);
    if (code) day.differences.push(differenceOf('payment', ours, ours.paid, theirs, code));
  }
  const byReference = new Map(listed.ok ? listed.entries.map((t) => [t.reference, t]) : []);
  for (const raw of rows.rows) {
    const ours = { ...raw, amount: Number(raw.amount) };
    const day = dayOf(ours.day, ours.currency);
    day.transfers += 1;
    if (ours.status === 'success') day.oursSettled += ours.amount;
    if (!listed.ok || day.theirsSettled === null) continue;
    const theirs = byReference.get(ours.reference);
    if (theirs?.state === 'success') day.theirsSettled += theirs.amount ?? 0;
    const code = difference(ours, theirs, listed);
    if (code) day.differences.push(differenceOf('transfer', ours, ours.amount, theirs, code));
  }
  const ordered = [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || a.currency.localeCompare(b.currency));
  const complete = (!listed.ok || listed.complete) && (!listedPayments.ok || listedPayments.complete);
  return { ...report, complete, days: ordered, unread };
}
