/** The CHAPA_* settings (README "Going live"). Live rails exist only when a secret key is set. */
export interface ChapaConfig {
  secretKey: string;
  baseUrl: string;
  webhookSecret: string | null;
  encryptionKey: string | null;
  approvalSecret: string | null;
  /** How long one call to Chapa may take before it counts as unavailable. */
  timeoutMs: number;
  /**
   * How long a claimed rail request is kept from another pass (rail-requests.ts): four call timeouts by default, as a
   * pass makes at most two calls (verify, send). CHAPA_LEASE_MS shortens it for tests, never below those two calls and a second of database work.
   */
  leaseMs: number;
  /** How long a listing of all transfers or transactions (reconciliation) is kept per process; 0 reads it every time. */
  listCacheMs: number;
}

export const DEFAULT_CHAPA_BASE_URL = 'https://api.chapa.co/v1';

/** The database work of a pass (claim, marks, settlement) beside its two calls: a lease shorter would lapse mid-pass. */
const LEASE_MARGIN_MS = 1_000;

const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);

export function readChapaConfig(env: Record<string, string | undefined> = process.env): ChapaConfig | null {
  const secretKey = text(env.CHAPA_SECRET_KEY);
  if (!secretKey) return null;
  const timeout = Number(env.CHAPA_TIMEOUT_MS ?? 15_000);
  const listCache = Number(env.CHAPA_LIST_CACHE_MS ?? 180_000);
  const timeoutMs = Number.isFinite(timeout) && timeout > 0 ? timeout : 15_000;
  const lease = Number(env.CHAPA_LEASE_MS);
  return {
    secretKey,
    baseUrl: (text(env.CHAPA_BASE_URL) ?? DEFAULT_CHAPA_BASE_URL).replace(/\/+$/, ''),
    webhookSecret: text(env.CHAPA_WEBHOOK_SECRET),
    encryptionKey: text(env.CHAPA_ENCRYPTION_KEY),
    approvalSecret: text(env.CHAPA_APPROVAL_SECRET),
    timeoutMs,
    leaseMs: env.CHAPA_LEASE_MS && Number.isFinite(lease) && lease >= 2 * timeoutMs + LEASE_MARGIN_MS ? lease : 4 * timeoutMs,
    listCacheMs: Number.isFinite(listCache) && listCache >= 0 ? listCache : 180_000,
  };
}

let cached: { env: string | undefined; config: ChapaConfig | null } | undefined;

/** The process's configuration, read once per CHAPA_SECRET_KEY value. */
export function chapaConfig(): ChapaConfig | null {
  if (!cached || cached.env !== process.env.CHAPA_SECRET_KEY) cached = { env: process.env.CHAPA_SECRET_KEY, config: readChapaConfig() };
  return cached.config;
}
