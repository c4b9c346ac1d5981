/**
 * Chapa's listings (all transfers, all transactions) read at most once per
 * CHAPA_LIST_CACHE_MS per process: a listing is up to 40 pages on the key
 * every business shares, and the reconciliation page would otherwise read
 * it all again on every view. An answer that failed is not kept; callers
 * waiting on the same read share it.
 */
const listings = new Map<string, { readAt: Date; value: Promise<{ ok: boolean }> }>();

export async function cachedListing<T extends { ok: boolean }>(key: string, ttlMs: number, read: () => Promise<T>): Promise<{ readAt: Date; value: T }> {
  const now = Date.now();
  const held = listings.get(key);
  if (held && now - held.readAt.getTime() < ttlMs) return { readAt: held.readAt, value: (await held.value) as T };
  const entry = { readAt: new Date(now), value: read() };
  if (ttlMs > 0) listings.set(key, entry);
  try {
    const value = await entry.value;
    if (!value.ok && listings.get(key) === entry) listings.delete(key);
    return { readAt: entry.readAt, value };
  } catch (err) {
    if (listings.get(key) === entry) listings.delete(key);
    throw err;
  }
}
