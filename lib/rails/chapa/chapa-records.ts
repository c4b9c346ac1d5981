import type { Listing, ProviderRecords } from '../../providers/provider-records';
import { chapaBalancesFor } from './chapa-balances';
import type { ChapaConfig } from './config';
import { cachedListing } from './listing-cache';
import { chapaTransferOf } from './rail-request-view';
import { listTransactions } from './transaction-list';
import { listTransfers } from './transfers';

type Read<T> = { ok: true; entries: T[]; complete: boolean } | { ok: false; reason: string };

const withReadAt = <T>({ readAt, value }: { readAt: Date; value: Read<T> }): Listing<T> => (value.ok ? { ...value, readAt } : value);

/**
 * Chapa's own records as the dashboard reads them, under the settings `config`
 * gives at each call (none: no key, nothing to read). Both listings are the
 * whole Chapa account's, the same for every business: read once per
 * CHAPA_LIST_CACHE_MS per process, not on every view.
 */
export function chapaRecords(config: () => ChapaConfig | null): ProviderRecords {
  return {
    listings() {
      const c = config();
      if (!c) return null;
      const account = `${c.baseUrl} ${c.secretKey}`;
      return {
        transfers: async () => withReadAt(await cachedListing(`transfers ${account}`, c.listCacheMs, () => listTransfers(c))),
        payments: async () => withReadAt(await cachedListing(`transactions ${account}`, c.listCacheMs, () => listTransactions(c))),
      };
    },
    balances: (db, businessId) => chapaBalancesFor(db, config(), businessId),
    transferView: (db, payout) => chapaTransferOf(db, payout),
  };
}
