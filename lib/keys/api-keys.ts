import { sql, type SQL } from 'drizzle-orm';
import { RecentMap } from '../recent-map';
import type { DbOrTx } from '../db/client';
import { compiledOnce, runCompiled } from '../db/prepared';
import { apiKeys } from '../db/schema';
import { ServiceError } from '../errors';
import { randomBase62, sha256Hex } from '../ids';
import { type Mode, API_KEY_SCOPES, type ApiKeyScope } from '../validation';
import { noteKeyUsed } from './key-last-used';

export interface ApiKeyAuth {
  apiKeyId: number;
  businessId: number;
  mode: Mode;
  scopes: readonly ApiKeyScope[];
}

export const hashApiKey = (key: string) => sha256Hex(key);

const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32}$/;

export interface IssueApiKeyOptions {
  businessId: number;
  mode: Mode;
  name: string;
  active?: boolean;
  giftCardsEnabled?: boolean;
  /** Every scope when not given. */
  scopes?: readonly ApiKeyScope[];
}

/** Creates a key and returns its secret: the only time it exists outside a hash. */
export async function issueApiKey(db: DbOrTx, opts: IssueApiKeyOptions) {
  const key = `sk_${opts.mode}_${randomBase62(32)}`;
  const [row] = await db
    .insert(apiKeys)
    .values({
      businessId: opts.businessId,
      mode: opts.mode,
      keyHash: hashApiKey(key),
      name: opts.name,
      prefix: key.slice(0, 12),
      lastFour: key.slice(-4),
      active: opts.active ?? true,
      giftCardsEnabled: opts.giftCardsEnabled ?? true,
      scopes: [...(opts.scopes ?? API_KEY_SCOPES)],
    })
    .returning();
  return { id: row.id, key, mode: opts.mode, active: row.active, gift_cards_enabled: row.giftCardsEnabled, scopes: row.scopes };
}

/** A key row that is neither switched off nor revoked: the lookup and the payout statement both read it this way. */
const KEY_ACTIVE = sql`active AND revoked_at IS NULL`;

// Every API request runs this lookup, except a payout on a remembered key.
const keyLookup = compiledOnce(
  () => sql`SELECT id, business_id, mode, ${KEY_ACTIVE} AS usable, gift_cards_enabled, scopes FROM api_keys WHERE key_hash = ${sql.placeholder('keyHash')}`,
);

const presentedKey = (authorization: string | null) => /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];

/**
 * Keys found usable by this process, by hash: a key's id, business, mode and
 * scopes never change, so they may be remembered; whether it is still usable may
 * change at any moment, so memory never answers that (see rememberedApiKey).
 */
// Only keys that exist are remembered, so this holds at most every key there is, and at most 10,000.
const usableKeys = new RecentMap<ApiKeyAuth>(10_000);

/**
 * The id, business and mode of a presented key this process found usable
 * before, without asking the database. Not proof that the key is usable now:
 * a caller may act on it only through a statement that confirms the key
 * itself and writes nothing when it is no longer usable (the payout statement
 * does, for every payout an API key makes), and must call authenticateApiKey
 * before answering anything else.
 */
export function rememberedApiKey(authorization: string | null): ApiKeyAuth | undefined {
  const key = presentedKey(authorization);
  return key === undefined ? undefined : usableKeys.get(hashApiKey(key));
}

/** Resolves `Authorization: Bearer sk_...` to its business, mode and scopes, or throws 401/403. */
export async function authenticateApiKey(db: DbOrTx, authorization: string | null): Promise<ApiKeyAuth> {
  const key = presentedKey(authorization);
  if (key === undefined) throw new ServiceError('unauthorized', 'Send your API key as Authorization: Bearer <API_KEY>.');
  if (!KEY_PATTERN.test(key)) throw new ServiceError('unauthorized', 'The API key is not valid.');
  const keyHash = hashApiKey(key);
  const result = await runCompiled<{ id: number; business_id: number; mode: Mode; usable: boolean; gift_cards_enabled: boolean; scopes: ApiKeyScope[] }>(
    db,
    keyLookup(),
    { keyHash },
  );
  const row = result.rows.at(0);
  if (!row) {
    usableKeys.delete(keyHash);
    throw new ServiceError('unauthorized', 'The API key is not valid.');
  }
  const auth: ApiKeyAuth = { apiKeyId: row.id, businessId: row.business_id, mode: row.mode, scopes: row.scopes };
  if (row.usable && row.gift_cards_enabled) usableKeys.set(keyHash, auth);
  else usableKeys.delete(keyHash);
  if (!row.usable) throw new ServiceError('forbidden', 'The API key is inactive.');
  if (!row.gift_cards_enabled) throw new ServiceError('forbidden', 'The API key is not set up for gift cards.');
  // A call its scopes then refuse still counts as a use: the owner should see that a key is being presented.
  noteKeyUsed(db, row.id);
  return auth;
}

/** The SQL condition, for a statement acting for an API key, that the key is still usable for this business and mode. */
export const apiKeyUsable = (apiKeyId: SQL, businessId: SQL, mode: SQL) =>
  sql`EXISTS (SELECT 1 FROM api_keys WHERE id = ${apiKeyId} AND business_id = ${businessId} AND mode = ${mode} AND ${KEY_ACTIVE} AND gift_cards_enabled)`;
