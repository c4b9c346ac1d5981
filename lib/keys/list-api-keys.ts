import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { apiKeys } from '../db/schema';
import type { Mode } from '../validation';

export interface ApiKeySummary {
  id: number;
  prefix: string;
  active: boolean;
  createdAt: string;
  revokedAt: string | null;
}

/** The keys of a business and mode, newest first: prefixes only, the secret exists only as a hash. */
export async function listApiKeys(db: DbOrTx, businessId: number, mode: Mode): Promise<ApiKeySummary[]> {
  const rows = await db
    .select({ id: apiKeys.id, prefix: apiKeys.prefix, active: apiKeys.active, createdAt: apiKeys.createdAt, revokedAt: apiKeys.revokedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.businessId, businessId), eq(apiKeys.mode, mode)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => ({ ...r, active: r.active && !r.revokedAt, createdAt: r.createdAt.toISOString(), revokedAt: r.revokedAt?.toISOString() ?? null }));
}
