import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { apiKeys } from '../db/schema';
import type { Mode, ApiKeyScope } from '../validation';

export interface ApiKeySummary {
  id: number;
  name: string;
  prefix: string;
  /** Null for keys made before the last four were kept. */
  lastFour: string | null;
  active: boolean;
  scopes: ApiKeyScope[];
  createdAt: string;
  revokedAt: string | null;
  /** To the minute: uses are written at most once a minute per key. */
  lastUsedAt: string | null;
}

/** The keys of a business and mode, newest first: name, prefix and last four only; the secret exists only as a hash. */
export async function listApiKeys(db: DbOrTx, businessId: number, mode: Mode): Promise<ApiKeySummary[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      lastFour: apiKeys.lastFour,
      active: apiKeys.active,
      scopes: apiKeys.scopes,
      createdAt: apiKeys.createdAt,
      revokedAt: apiKeys.revokedAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(and(eq(apiKeys.businessId, businessId), eq(apiKeys.mode, mode)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => ({
    ...r,
    active: r.active && !r.revokedAt,
    createdAt: r.createdAt.toISOString(),
    revokedAt: r.revokedAt?.toISOString() ?? null,
    lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  }));
}
