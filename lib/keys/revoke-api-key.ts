import { and, eq, isNull, sql } from 'drizzle-orm';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { apiKeys } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import type { Mode } from '../validation';

export interface RevokeApiKeyOptions {
  businessId: number;
  mode: Mode;
  keyId: number;
  actor: Actor;
}

/** Turns a key off for good: the API answers 403 to it from the next request on. */
export async function revokeApiKey(db: Db, opts: RevokeApiKeyOptions) {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ active: false, revokedAt: sql`now()` })
      .where(and(eq(apiKeys.id, opts.keyId), eq(apiKeys.businessId, opts.businessId), eq(apiKeys.mode, opts.mode), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id, prefix: apiKeys.prefix, revokedAt: apiKeys.revokedAt });
    if (!row) {
      const [existing] = await tx
        .select({ id: apiKeys.id })
        .from(apiKeys)
        .where(and(eq(apiKeys.id, opts.keyId), eq(apiKeys.businessId, opts.businessId), eq(apiKeys.mode, opts.mode)));
      // Another business's key is "not found", never "already revoked".
      if (!existing) throw new ServiceError('not_found', 'No API key has this id.');
      throw new ServiceError('already_disabled', 'This API key is already revoked.');
    }
    await recordAudit(tx, { businessId: opts.businessId, mode: opts.mode, actor: opts.actor, action: 'api_key.revoked', target: row.prefix });
    return { id: row.id, prefix: row.prefix, revoked_at: row.revokedAt!.toISOString() };
  });
}
