import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../db/client';
import { webhookEndpoints } from '../db/schema';
import { randomBase62 } from '../ids';
import { modeSchema, parseInput, type Mode } from '../validation';
import { checkWebhookUrl } from './url-guard';

export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export const registerWebhookSchema = z.object({
  mode: modeSchema,
  url: z.string({ error: 'url is required.' }).max(2048, { error: 'url is too long.' }),
  secret: z.string({ error: 'secret must be a string.' }).min(16, { error: 'secret must be at least 16 characters.' }).max(200).optional(),
});

export type EndpointKind = 'business' | 'dashboard';

/** Sets the business's webhook URL of a mode; a new secret replaces the old one. */
export async function registerWebhookEndpoint(db: Db, businessId: number, input: unknown, kind: EndpointKind = 'business') {
  const { mode, url, secret } = parseInput(registerWebhookSchema, input);
  const checked = await checkWebhookUrl(url, mode);
  return upsertEndpoint(db, { businessId, mode, kind, url: checked.toString(), secret: secret ?? newWebhookSecret() });
}

export async function upsertEndpoint(db: Db, opts: { businessId: number; mode: Mode; kind: EndpointKind; url: string; secret: string }) {
  const [row] = await db
    .insert(webhookEndpoints)
    .values({ publicId: `we_${randomBase62(20)}`, ...opts })
    .onConflictDoUpdate({
      target: [webhookEndpoints.businessId, webhookEndpoints.mode, webhookEndpoints.kind],
      set: { url: opts.url, secret: opts.secret, previousSecret: null, previousSecretExpiresAt: null, disabledAt: null, updatedAt: sql`now()` },
    })
    .returning();
  return { mode: row.mode, url: row.url, secret: row.secret };
}

export async function findEndpoint(db: Db, businessId: number, mode: Mode, kind: EndpointKind) {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.businessId, businessId), eq(webhookEndpoints.mode, mode), eq(webhookEndpoints.kind, kind)));
  return row;
}

/** Where the dashboard receives its own copy of every event: `${APP_URL}/api/webhooks/{public_id}`. */
export function dashboardWebhookUrl(publicId: string, appUrl = process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`) {
  return `${appUrl.replace(/\/$/, '')}/api/webhooks/${publicId}`;
}

/**
 * The dashboard's receiving endpoint of a business and mode, made once; it must
 * exist before the first event, since events fan out to the endpoints of the
 * moment they are written.
 */
export async function ensureDashboardEndpoint(db: DbOrTx, businessId: number, mode: Mode): Promise<void> {
  const publicId = `we_${randomBase62(20)}`;
  await db
    .insert(webhookEndpoints)
    .values({ publicId, businessId, mode, kind: 'dashboard', url: dashboardWebhookUrl(publicId), secret: newWebhookSecret() })
    .onConflictDoNothing({ target: [webhookEndpoints.businessId, webhookEndpoints.mode, webhookEndpoints.kind] });
}
