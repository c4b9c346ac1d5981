import { and, eq } from 'drizzle-orm';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { apiKeys } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import type { Mode } from '../validation';

export interface RenameApiKeyOptions {
  businessId: number;
  mode: Mode;
  keyId: number;
  name: string;
  actor: Actor;
}

/** Gives a key of this business and mode a new name; the audit log keeps the old one. */
export async function renameApiKey(db: Db, opts: RenameApiKeyOptions) {
  return inTransaction(db, async (tx) => {
    const scope = and(eq(apiKeys.id, opts.keyId), eq(apiKeys.businessId, opts.businessId), eq(apiKeys.mode, opts.mode));
    const [before] = await tx.select({ name: apiKeys.name, prefix: apiKeys.prefix }).from(apiKeys).where(scope).for('update');
    if (!before) throw new ServiceError('not_found', 'No API key has this id.');
    if (before.name !== opts.name) {
      await tx.update(apiKeys).set({ name: opts.name }).where(scope);
      await recordAudit(tx, {
        businessId: opts.businessId,
        mode: opts.mode,
        actor: opts.actor,
        action: 'api_key.renamed',
        target: before.prefix,
        details: { from: before.name, to: opts.name },
      });
    }
    return { id: opts.keyId, prefix: before.prefix, name: opts.name };
  });
}
