import { z } from 'zod';
import { apiKeyNameSchema } from '../keys/api-key-name';
import { scopesSchema } from '../keys/key-scopes';

export const createApiKeySchema = z.object({ name: apiKeyNameSchema, scopes: scopesSchema.optional() });

export const renameApiKeySchema = z.object({
  key_id: z.number({ error: 'key_id must be a number.' }).int().positive().max(2_147_483_647, { error: 'key_id is not a known id.' }),
  name: apiKeyNameSchema,
});

export const revokeApiKeySchema = z.object({
  key_id: z.number({ error: 'key_id must be a number.' }).int().positive().max(2_147_483_647, { error: 'key_id is not a known id.' }),
});

export const setWebhookUrlSchema = z.object({
  url: z
    .string({ error: 'Enter the URL that should receive events.' })
    .trim()
    .min(1, { error: 'Enter the URL that should receive events.' })
    .max(2048, { error: 'Use a URL of at most 2,048 characters.' })
    // The form says it in its own words; the core (resolveWebhookTarget) still decides what a URL may be.
    .refine((u) => /^https?:\/\/./i.test(u) && URL.canParse(u), {
      error: 'Enter the full address, starting with https://, like https://example.com/webhooks.',
    }),
});

export const endpointSecretSchema = z.object({});

export const replayEventSchema = z.object({
  event_id: z.string({ error: 'event_id must be a string.' }).min(1).max(255),
});

/** A period of the business's wall clock (datetime-local, no offset), or exact instants with their offset. */
export const replayFailedSchema = z.object({
  from: z.iso.datetime({ offset: true, local: true, error: 'from must be a date and time.' }),
  to: z.iso.datetime({ offset: true, local: true, error: 'to must be a date and time.' }),
});

export type SetWebhookUrlInput = z.input<typeof setWebhookUrlSchema>;
