import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import type { Actor } from '../actor';
import type { Mode } from '../validation';
import { findEndpoint } from './endpoints';

export interface RevealWebhookSecretOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
}

/** The signing secret on demand; each reveal is audited, since whoever holds it can forge our events. */
export async function revealWebhookSecret(db: Db, opts: RevealWebhookSecretOptions) {
  const endpoint = await findEndpoint(db, opts.businessId, opts.mode, 'business');
  if (!endpoint) throw new ServiceError('not_found', 'No webhook URL is registered for this mode.');
  await recordAudit(db, { businessId: opts.businessId, mode: opts.mode, actor: opts.actor, action: 'webhook.secret_revealed', target: endpoint.url });
  return { secret: endpoint.secret };
}
