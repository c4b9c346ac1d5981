import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { compiledOnce, runCompiled } from '../db/prepared';
import { apiKeys } from '../db/schema';
import { ServiceError } from '../errors';
import { randomBase62, sha256Hex } from '../ids';
import type { Mode } from '../validation';
import { noteKeyUsed } from './key-last-used';

export interface ApiKeyAuth {
  apiKeyId: number;
  businessId: number;
  mode: Mode;
}

export const hashApiKey = (key: string) => sha256Hex(key);

const KEY_PATTERN = /^sk_(test|live)_[0-9A-Za-z]{32}$/;

export interface IssueApiKeyOptions {
  businessId: number;
  mode: Mode;
  name: string;
  active?: boolean;
  giftCardsEnabled?: boolean;
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
    })
    .returning();
  return { id: row.id, key, mode: opts.mode, active: row.active, gift_cards_enabled: row.giftCardsEnabled };
}

// Every API request runs this lookup.
const keyLookup = compiledOnce(
  () =>
    sql`SELECT id, business_id, mode, active AND revoked_at IS NULL AS usable, gift_cards_enabled FROM api_keys WHERE key_hash = ${sql.placeholder('keyHash')}`,
);

/** Resolves `Authorization: Bearer sk_...` to its business and mode, or throws 401/403. */
export async function authenticateApiKey(db: DbOrTx, authorization: string | null): Promise<ApiKeyAuth> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new ServiceError('unauthorized', 'Send your API key as Authorization: Bearer <API_KEY>.');
  const key = match[1];
  if (!KEY_PATTERN.test(key)) throw new ServiceError('unauthorized', 'The API key is not valid.');
  const result = await runCompiled<{ id: number; business_id: number; mode: Mode; usable: boolean; gift_cards_enabled: boolean }>(db, keyLookup(), {
    keyHash: hashApiKey(key),
  });
  const row = result.rows[0];
  if (!row) throw new ServiceError('unauthorized', 'The API key is not valid.');
  if (!row.usable) throw new ServiceError('forbidden', 'The API key is inactive.');
  if (!row.gift_cards_enabled) throw new ServiceError('forbidden', 'The API key is not set up for gift cards.');
  noteKeyUsed(db, row.id);
  return { apiKeyId: row.id, businessId: row.business_id, mode: row.mode };
}
