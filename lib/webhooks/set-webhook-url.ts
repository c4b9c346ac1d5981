import { and, eq } from 'drizzle-orm';
import { recordAudit } from '../audit';
import { webhookEndpoints } from '../db/schema';
import type { Db } from '../db/client';
import type { Actor } from '../actor';
import type { Mode } from '../validation';
import { registerWebhookEndpoint } from './endpoints';

export interface SetWebhookUrlOptions {
  businessId: number;
  mode: Mode;
  url: string;
  actor: Actor;
}

/** The dashboard's way to set the business's endpoint: the same SSRF and https rules as the back office. */
export async function setWebhookUrl(db: Db, opts: SetWebhookUrlOptions) {
  const [before] = await db
    .select({ url: webhookEndpoints.url })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.businessId, opts.businessId), eq(webhookEndpoints.mode, opts.mode), eq(webhookEndpoints.kind, 'business')));
  const endpoint = await registerWebhookEndpoint(db, opts.businessId, { mode: opts.mode, url: opts.url });
  await recordAudit(db, {
    businessId: opts.businessId,
    mode: opts.mode,
    actor: opts.actor,
    action: 'webhook.url_set',
    target: endpoint.url,
    details: { from: before?.url ?? null, to: endpoint.url },
  });
  return { mode: endpoint.mode, url: endpoint.url };
}
