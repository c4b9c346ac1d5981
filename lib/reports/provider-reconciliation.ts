import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { ChapaConfig } from '../rails/chapa/config';
import { cachedListing } from '../rails/chapa/listing-cache';
import { listTransactions, type ListedTransaction } from '../rails/chapa/transaction-list';
import { listTransfers, type ListedTransfer } from '../rails/chapa/transfers';
import type { Currency } from '../validation';
import { dayRangeOf } from './report-range';
import type { ReconciliationOptions } from './reconciliation/definitions';

interface ProviderDifference {
  kind: 'transfer' | 'payment';
  reference: string;
  day: string;
  currency: Currency;
  ours: { status: string; amount: number };
  chapa: { status: string; amount: number | null } | null;
  detail: string;
}

/** One live day and currency: our payouts sent through Chapa against what Chapa holds for the same references. */
interface ProviderDay {
  day: string;
  currency: Currency;
  transfers: number;
  /** What our ledger paid out through Chapa and settled, in minor units (what the destinations receive). */
  oursSettled: number;
  /** What Chapa says it paid for the same references; null when its list of transfers could not be read. */
  chapaSettled: number | null;
  /** Live payments through Chapa, what our ledger credited for them (amount and fee, what the customer paid) and what Chapa says was paid (null: not read). */
  payments: number;
  oursReceived: number;
  chapaReceived: number | null;
  differences: ProviderDifference[];
}

/** One of Chapa's two listings that could not be read: its side is left uncompared, the other side still is. */
export interface UnreadListing {
  listing: 'transfers' | 'transactions';
  reason: string;
}

export interface ProviderReconciliation {
  complete: boolean;
  days: ProviderDay[];
  unread: UnreadListing[];
}

export const LISTING_NAMES: Record<UnreadListing['listing'], string> = {
  transfers: 'Chapa’s list of transfers (our payouts)',
  transactions: 'Chapa’s list of transactions (our payments)',
};

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

/** What was read of one Chapa listing: whether it was read to its end, and when (it may come from the cache). */
interface Listing {
  complete: boolean;
  readAt: Date;
}

export const CUT_SHORT = 'Chapa’s listing was cut short before this reference (too many pages to read); not compared.';

/** A row that changed after the listing was read is compared on a later read, not against an older picture of Chapa. */
const newerThan = (listing: Listing, changedAt: string) => new Date(changedAt).getTime() > listing.readAt.getTime();

/** Why one of our transfers and Chapa's record of it disagree, or null when they agree (or cannot yet). */
function difference(ours: OurTransfer, chapa: ListedTransfer | undefined, listing: Listing): string | null {
  if (newerThan(listing, ours.changed_at)) return null;
  if (!chapa) {
    const missing = transferMissing(ours);
    return missing && !listing.complete ? CUT_SHORT : missing;
  }
  if (chapa.amount !== null && chapa.amount !== ours.amount) return 'Chapa lists a different amount.';
  if (chapa.currency !== null && chapa.currency !== ours.currency) return 'Chapa lists a different currency.';
  if (ours.status === 'success' && chapa.state !== 'success') return `We settled it as paid; Chapa says ${chapa.status || 'nothing'}.`;
  if (ours.status === 'failed' && chapa.state === 'success') return 'We refunded it, but Chapa says it was paid.';
  if (ours.status === 'pending' && chapa.state !== null && chapa.state !== 'pending') return `Still pending here; Chapa says ${chapa.status}.`;
  return null;
}

function transferMissing(ours: OurTransfer): string | null {
  if (ours.status === 'success') return 'We paid it out, but Chapa lists no transfer with this reference.';
  // Refused by Chapa, or still queued for sending: Chapa not knowing it is expected.
  if (ours.status === 'failed' || ours.state === 'queued' || ours.state === 'sending') return null;
  return 'Chapa took this transfer but no longer lists it.';
}

type OurPayment = {
  reference: string;
  /** What the customer pays: the amount and the service fee, as Chapa was asked for. */
  paid: number;
  currency: Currency;
  status: string;
  day: string;
  changed_at: string;
};

const PAID = new Set(['success', 'successful']);

function paymentDifference(ours: OurPayment, chapa: ListedTransaction | undefined, listing: Listing): string | null {
  if (newerThan(listing, ours.changed_at)) return null;
  const chapaPaid = chapa !== undefined && PAID.has(chapa.status);
  if (!chapa) return ours.status !== 'success' ? null : listing.complete ? 'We credited it, but Chapa lists no payment with this reference.' : CUT_SHORT;
  if (chapa.amount !== null && chapaPaid && chapa.amount !== ours.paid) return 'Chapa lists a different amount paid.';
  if (ours.status === 'success' && !chapaPaid) return `We credited it; Chapa says ${chapa.status || 'nothing'}.`;
  if (ours.status !== 'success' && chapaPaid) return `Chapa says it was paid; here it is ${ours.status}.`;
  return null;
}

/**
 * The provider column of the daily reconciliation (live mode): each live day's
 * Chapa transactions and transfers of this business against our ledger's
 * payments and payouts. Only this
 * business's own references are compared, so nothing of another business on the
 * same Chapa account shows. Null in test mode or when live rails are off.
 */
export async function providerReconciliation(db: Db, config: ChapaConfig | null, opts: ReconciliationOptions): Promise<ProviderReconciliation | null> {
  if (opts.mode !== 'live' || !config) return null;
  const range = dayRangeOf(opts.from, opts.to, opts.timeZone);
  const rows = await db.execute<OurTransfer>(sql`
    SELECT r.reference, r.amount, r.currency, p.status, r.state, to_char(r.created_at AT TIME ZONE ${opts.timeZone}, 'YYYY-MM-DD') AS day,
      greatest(r.created_at, p.updated_at)::text AS changed_at
    FROM rail_requests r JOIN payouts p ON p.id = r.payout_id
    WHERE r.business_id = ${opts.businessId} AND r.mode = 'live' AND r.provider = 'chapa'
      AND r.created_at >= ${range.start.toISOString()}::timestamptz AND r.created_at < ${range.end.toISOString()}::timestamptz
      ${opts.currency ? sql`AND r.currency = ${opts.currency}` : sql``}
    ORDER BY r.created_at, r.id`);
  const paymentRows = await db.execute<OurPayment>(sql`
    SELECT link_reference AS reference, amount + service_fee AS paid, currency, status, to_char(created_at AT TIME ZONE ${opts.timeZone}, 'YYYY-MM-DD') AS day,
      greatest(created_at, updated_at)::text AS changed_at
    FROM payments
    WHERE business_id = ${opts.businessId} AND mode = 'live' AND (verify_state IS NOT NULL OR provider_request_id IS NOT NULL OR provider_checkout_url IS NOT NULL)
      AND created_at >= ${range.start.toISOString()}::timestamptz AND created_at < ${range.end.toISOString()}::timestamptz
      ${opts.currency ? sql`AND currency = ${opts.currency}` : sql``}
    ORDER BY created_at, id`);
  if (rows.rows.length === 0 && paymentRows.rows.length === 0) return { complete: true, days: [], unread: [] };
  // Both listings are the whole Chapa account's, the same for every business: read once per CHAPA_LIST_CACHE_MS, not per view.
  const account = `${config.baseUrl} ${config.secretKey}`;
  const none = { readAt: new Date(), value: { ok: true as const, transfers: [], transactions: [], complete: true } };
  const [transferList, paymentList] = await Promise.all([
    rows.rows.length > 0 ? cachedListing(`transfers ${account}`, config.listCacheMs, () => listTransfers(config)) : none,
    paymentRows.rows.length > 0 ? cachedListing(`transactions ${account}`, config.listCacheMs, () => listTransactions(config)) : none,
  ]);
  const listed = transferList.value;
  const listedPayments = paymentList.value;
  const unread: UnreadListing[] = [];
  if (!listed.ok) unread.push({ listing: 'transfers', reason: listed.reason });
  if (!listedPayments.ok) unread.push({ listing: 'transactions', reason: listedPayments.reason });
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
        chapaSettled: listed.ok ? 0 : null,
        payments: 0,
        oursReceived: 0,
        chapaReceived: listedPayments.ok ? 0 : null,
        differences: [],
      };
      days.set(key, day);
    }
    return day;
  };
  const paymentListing = listedPayments.ok ? { complete: listedPayments.complete, readAt: paymentList.readAt } : null;
  const byTxRef = new Map(listedPayments.ok ? listedPayments.transactions.map((t) => [t.txRef, t]) : []);
  for (const raw of paymentRows.rows) {
    const ours = { ...raw, paid: Number(raw.paid) };
    const day = dayOf(ours.day, ours.currency);
    day.payments += 1;
    if (ours.status === 'success') day.oursReceived += ours.paid;
    if (!paymentListing || day.chapaReceived === null) continue;
    const chapa = byTxRef.get(ours.reference);
    if (chapa && PAID.has(chapa.status)) day.chapaReceived += chapa.amount ?? 0;
    const detail = paymentDifference(ours, chapa, paymentListing);
    if (detail) {
      day.differences.push({
        kind: 'payment',
        reference: ours.reference,
        day: ours.day,
        currency: ours.currency,
        ours: { status: ours.status, amount: ours.paid },
        chapa: chapa ? { status: chapa.status, amount: chapa.amount } : null,
        detail,
      });
    }
  }
  const transferListing = listed.ok ? { complete: listed.complete, readAt: transferList.readAt } : null;
  const byReference = new Map(listed.ok ? listed.transfers.map((t) => [t.reference, t]) : []);
  for (const raw of rows.rows) {
    const ours = { ...raw, amount: Number(raw.amount) };
    const day = dayOf(ours.day, ours.currency);
    day.transfers += 1;
    if (ours.status === 'success') day.oursSettled += ours.amount;
    if (!transferListing || day.chapaSettled === null) continue;
    const chapa = byReference.get(ours.reference);
    if (chapa?.state === 'success') day.chapaSettled += chapa.amount ?? 0;
    const detail = difference(ours, chapa, transferListing);
    if (detail) {
      day.differences.push({
        kind: 'transfer',
        reference: ours.reference,
        day: ours.day,
        currency: ours.currency,
        ours: { status: ours.status, amount: ours.amount },
        chapa: chapa ? { status: chapa.status, amount: chapa.amount } : null,
        detail,
      });
    }
  }
  const ordered = [...days.values()].sort((a, b) => a.day.localeCompare(b.day) || a.currency.localeCompare(b.currency));
  const complete = (!listed.ok || listed.complete) && (!listedPayments.ok || listedPayments.complete);
  return { complete, days: ordered, unread };
}
