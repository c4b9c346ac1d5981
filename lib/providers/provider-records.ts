import type { Db } from '../db/client';
import type { Mode } from '../validation';

/** One transfer as the provider lists it on its account. */
export interface ListedTransfer {
  reference: string;
  /** The provider's own word for it, shown as it gave it. */
  status: string;
  /** What that word means here; null when it means none of these. */
  state: 'success' | 'failed' | 'pending' | null;
  amount: number | null;
  currency: string | null;
}

/** One payment as the provider lists it on its account. */
export interface ListedPayment {
  reference: string;
  status: string;
  /** The provider says the customer paid. */
  paid: boolean;
  amount: number | null;
  currency: string | null;
}

/** One listing read: whether it was read to its end, and when (it may come from the provider's cache). */
export type Listing<T> = { ok: true; entries: T[]; complete: boolean; readAt: Date } | { ok: false; reason: string };

/** What a provider keeps on its own account, to compare with our ledger. */
interface ProviderListings {
  transfers(): Promise<Listing<ListedTransfer>>;
  payments(): Promise<Listing<ListedPayment>>;
}

export interface ProviderBalance {
  currency: string;
  available: number | null;
  ledger: number | null;
}

/** shared: the account is the whole service's and another business has used it, so its balances are not this business's to see. */
export type ProviderBalances = { shown: true; balances: ProviderBalance[] } | { shown: false; why: 'shared' } | { shown: false; why: 'unread'; reason: string };

/** The provider's side of one payout, for the payout's page. */
export interface ProviderTransfer {
  reference: string;
  providerReference: string | null;
  /**
   * queued: not yet sent; sending: sent or being sent, answer not known; sent: the provider has it; done: settled;
   * review: still unsettled a day after it was queued, for a person to take up with the provider (never refunded by itself);
   * dead: its job had all its tries without an answer that ends it, and is no longer retried (a webhook about it wakes it).
   */
  state: 'queued' | 'sending' | 'sent' | 'done' | 'review' | 'dead';
  verifyStatus: string | null;
  verifiedAt: Date | null;
  /** Tries of the job's current stage (sending, then verifying) and when the next comes. */
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
}

/**
 * What the dashboard reads of a provider's own records: its listings and
 * balances for the reconciliation, its side of a payout for the payout's page.
 * Each answers null where the provider keeps nothing apart from our ledger
 * (the sandbox).
 */
export interface ProviderRecords {
  listings(): ProviderListings | null;
  balances(db: Db, businessId: number): Promise<ProviderBalances | null>;
  transferView(db: Db, payout: { businessId: number; mode: Mode; reference: string }): Promise<ProviderTransfer | null>;
}

/** A provider that keeps no records of its own. */
export const NO_RECORDS: ProviderRecords = {
  listings: () => null,
  balances: async () => null,
  transferView: async () => null,
};
