import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { webhookEndpoints } from '../db/schema';
import { ServiceError } from '../errors';
import { modeSchema, parseInput } from '../validation';
import { newWebhookSecret } from './endpoints';

export const rotateSecretSchema = z.object({
  mode: modeSchema,
  secret: z.string({ error: 'secret must be a string.' }).min(16, { error: 'secret must be at least 16 characters.' }).max(200).optional(),
  overlap_hours: z
    .number({ error: 'overlap_hours must be a number.' })
    .int()
    .min(0)
    .max(24 * 7)
    .optional(),
});

/**
 * A new secret for the business's endpoint of a mode; the old one keeps
 * signing beside it for overlap_hours (default 24) so the receiver can switch
 * without refusing a delivery.
 */
export async function rotateWebhookSecret(db: Db, businessId: number, input: unknown) {
  const { mode, secret, overlap_hours } = parseInput(rotateSecretSchema, input);
  const next = secret ?? newWebhookSecret();
  const hours = overlap_hours ?? 24;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      previousSecret: sql`${webhookEndpoints.secret}`,
      previousSecretExpiresAt: sql`now() + ${hours} * interval '1 hour'`,
      secret: next,
      updatedAt: sql`now()`,
    })
    .where(and(eq(webhookEndpoints.businessId, businessId), eq(webhookEndpoints.mode, mode), eq(webhookEndpoints.kind, 'business')))
    .returning();
  if (!row) throw new ServiceError('not_found', 'No webhook URL is registered for this mode.');
  return { mode: row.mode, url: row.url, secret: row.secret, previous_secret_expires_at: row.previousSecretExpiresAt!.toISOString() };
}
