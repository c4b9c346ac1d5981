import type { Db } from '../db/client';
import { findEndpoint } from '../webhooks/endpoints';
import type { Mode } from '../validation';

export interface WebhookEndpointView {
  url: string;
  disabled: boolean;
  updatedAt: string;
  previousSecretExpiresAt: string | null;
}

/** The business's endpoint of a mode as the developers page shows it: never the secret. */
export async function getWebhookEndpoint(db: Db, businessId: number, mode: Mode): Promise<WebhookEndpointView | null> {
  const row = await findEndpoint(db, businessId, mode, 'business');
  if (!row) return null;
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt > new Date() ? row.previousSecretExpiresAt.toISOString() : null;
  return { url: row.url, disabled: !!row.disabledAt, updatedAt: row.updatedAt.toISOString(), previousSecretExpiresAt: overlap };
}
