import { recordAudit } from '../audit';
import { createApiKey as createKey } from '../keys/create-api-key';
import { renameApiKey as renameKey } from '../keys/rename-api-key';
import { revokeApiKey as revokeKey } from '../keys/revoke-api-key';
import { replayEventWithVerdict, replayFailedEvents, replayVerdictText } from '../webhooks/replay';
import { revealWebhookSecret as revealSecret } from '../webhooks/reveal-webhook-secret';
import { rotateWebhookSecret as rotateSecret } from '../webhooks/rotate-secret';
import { sendTestEvent } from '../webhooks/send-test-event';
import { setWebhookUrl as setUrl } from '../webhooks/set-webhook-url';
import { zonedWallTime } from '../time-zone';
import { ServiceError } from '../errors';
import { defineAction } from './define-action';
import {
  createApiKeySchema,
  endpointSecretSchema,
  replayEventSchema,
  replayFailedSchema,
  renameApiKeySchema,
  revokeApiKeySchema,
  setWebhookUrlSchema,
} from './developer.validation';

export const createApiKey = defineAction({
  name: 'createApiKey',
  permission: 'developers',
  schema: createApiKeySchema,
  handler: ({ db, session, input }) =>
    createKey(db, { businessId: session.businessId, mode: session.mode, name: input.name, scopes: input.scopes, actor: session.actor }),
});

export const renameApiKey = defineAction({
  name: 'renameApiKey',
  permission: 'developers',
  schema: renameApiKeySchema,
  handler: ({ db, session, input }) =>
    renameKey(db, { businessId: session.businessId, mode: session.mode, keyId: input.key_id, name: input.name, actor: session.actor }),
});

export const revokeApiKey = defineAction({
  name: 'revokeApiKey',
  permission: 'developers',
  schema: revokeApiKeySchema,
  handler: ({ db, session, input }) => revokeKey(db, { businessId: session.businessId, mode: session.mode, keyId: input.key_id, actor: session.actor }),
});

export const setWebhookUrl = defineAction({
  name: 'setWebhookUrl',
  permission: 'developers',
  schema: setWebhookUrlSchema,
  handler: ({ db, session, input }) => setUrl(db, { businessId: session.businessId, mode: session.mode, url: input.url, actor: session.actor }),
});

export const revealWebhookSecret = defineAction({
  name: 'revealWebhookSecret',
  permission: 'developers',
  schema: endpointSecretSchema,
  handler: ({ db, session }) => revealSecret(db, { businessId: session.businessId, mode: session.mode, actor: session.actor }),
});

export const rotateWebhookSecret = defineAction({
  name: 'rotateWebhookSecret',
  permission: 'developers',
  schema: endpointSecretSchema,
  handler: async ({ db, session }) => {
    const rotated = await rotateSecret(db, session.businessId, { mode: session.mode });
    await recordAudit(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, action: 'webhook.secret_rotated', target: rotated.url });
    return { secret: rotated.secret, previous_secret_expires_at: rotated.previous_secret_expires_at };
  },
});

export const replayEvent = defineAction({
  name: 'replayEvent',
  permission: 'developers',
  schema: replayEventSchema,
  handler: async ({ db, session, input }) => {
    const replayed = await replayEventWithVerdict(db, { businessId: session.businessId, mode: session.mode, eventId: input.event_id });
    await recordAudit(db, {
      businessId: session.businessId,
      mode: session.mode,
      actor: session.actor,
      action: 'webhook.replayed',
      target: input.event_id,
      details: { outcome: replayed.verdict.state },
    });
    return { ...replayed, queued: replayed.verdict.state === 'queued', message: replayVerdictText(replayed.verdict) };
  },
});

export const replayFailedWebhooks = defineAction({
  name: 'replayFailedWebhooks',
  permission: 'developers',
  schema: replayFailedSchema,
  handler: async ({ db, session, input }) => {
    // A time without an offset is the business's wall clock, as every other date in the dashboard.
    const instant = (v: string) => (/(Z|[+-]\d\d:?\d\d)$/i.test(v) ? new Date(v) : zonedWallTime(v, session.timeZone));
    const from = instant(input.from);
    const to = instant(input.to);
    if (!(from < to)) throw new ServiceError('validation_error', { to: 'to must be after from.' });
    const replayed = await replayFailedEvents(db, session.businessId, { mode: session.mode, from: from.toISOString(), to: to.toISOString() });
    await recordAudit(db, {
      businessId: session.businessId,
      mode: session.mode,
      actor: session.actor,
      action: 'webhook.failed_replayed',
      target: `${replayed.from}/${replayed.to}`,
      details: { deliveries: replayed.deliveries },
    });
    return replayed;
  },
});

export const sendTestWebhook = defineAction({
  name: 'sendTestWebhook',
  permission: 'developers',
  schema: endpointSecretSchema,
  handler: ({ db, session }) => sendTestEvent(db, { businessId: session.businessId, mode: session.mode, actor: session.actor }),
});
