import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import type { Actor } from '../actor';
import type { Mode, ApiKeyScope } from '../validation';
import { issueApiKey } from './api-keys';

export interface CreateApiKeyOptions {
  businessId: number;
  mode: Mode;
  name: string;
  /** Every scope when not given. */
  scopes?: readonly ApiKeyScope[];
  actor: Actor;
}

/** A new key made from the dashboard, recorded in the audit log by its name and prefix (never its secret). */
export async function createApiKey(db: Db, opts: CreateApiKeyOptions) {
  return inTransaction(db, async (tx) => {
    const issued = await issueApiKey(tx, { businessId: opts.businessId, mode: opts.mode, name: opts.name, scopes: opts.scopes });
    const prefix = issued.key.slice(0, 12);
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor: opts.actor,
      action: 'api_key.created',
      target: prefix,
      details: { name: opts.name, scopes: issued.scopes },
    });
    return { id: issued.id, key: issued.key, name: opts.name, prefix, mode: opts.mode, scopes: issued.scopes };
  });
}
