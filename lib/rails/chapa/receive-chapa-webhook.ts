import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { payments } from '../../db/schema';
import { ServiceError } from '../../errors';
import { providerEvents } from '../../providers/provider-registry';
import { answerData, textField } from './chapa-answers';
import type { ChapaConfig } from './config';
import { onChapaTransferEvent, type ChapaEvent } from './transfer-events';

export interface ReceivedChapaWebhook {
  event: string;
  handled: 'payment' | 'transfer' | 'ignored';
  /** For payment events: the payment it asked verify about, or null when it names none of ours. */
  payment?: string | null;
}

/** x-chapa-signature is the hex HMAC-SHA256 of the raw body under the webhook secret; chapa-signature signs only the secret and proves nothing about the body. */
function chapaSignatureValid(secret: string, rawBody: Buffer, header: string | null): boolean {
  if (!header || !/^[0-9a-f]{64}$/i.test(header.trim())) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(header.trim(), 'hex'));
}

/** An event that names only Chapa's own reference (a direct charge's ref_id, kept as provider_reference). */
async function paymentByChapaReference(db: Db, reference: string): Promise<string | null> {
  const [row] = await db
    .select({ linkReference: payments.linkReference })
    .from(payments)
    .where(and(eq(payments.providerReference, reference), eq(payments.mode, 'live')))
    .limit(1);
  return row?.linkReference ?? null;
}

const unsigned = () => new ServiceError('unauthorized', 'The webhook signature (x-chapa-signature) is missing or does not match the body.');

/**
 * Chapa's webhook: the signature over the raw body first, then dispatch by event.
 * Payment events only ask verify (the core's paymentReported, registered at start); the
 * event's own status and amount are never trusted, so forged, replayed,
 * duplicated or out-of-order events cannot credit anything extra.
 */
export async function receiveChapaWebhook(db: Db, config: ChapaConfig | null, headers: Headers, rawBody: Buffer): Promise<ReceivedChapaWebhook> {
  if (!config) throw new ServiceError('not_found', 'Live payments are not configured.');
  if (!config.webhookSecret) throw new ServiceError('unauthorized', 'CHAPA_WEBHOOK_SECRET is not set: webhooks cannot be verified and are refused.');
  if (!chapaSignatureValid(config.webhookSecret, rawBody, headers.get('x-chapa-signature'))) throw unsigned();

  let parsed: unknown;
  try {
    parsed = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new ServiceError('validation_error', { body: 'The webhook body is not JSON.' });
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new ServiceError('validation_error', { body: 'The webhook body is not a JSON object.' });
  const payload = parsed as ChapaEvent['payload'];
  const event = (textField(payload, 'event') ?? '').toLowerCase();
  // Chapa's examples put the fields at the top level; some SDKs nest them in `data`: read both.
  const data = answerData(payload);
  const received: ChapaEvent = {
    event,
    payload,
    txRef: textField(payload, 'tx_ref') ?? textField(data, 'tx_ref') ?? textField(payload, 'trx_ref'),
    reference: textField(payload, 'reference') ?? textField(data, 'reference'),
  };

  if (event.startsWith('charge.')) {
    const linkReference = received.txRef ?? (received.reference ? await paymentByChapaReference(db, received.reference) : null);
    if (linkReference) await providerEvents().paymentReported(db, linkReference);
    return { event, handled: 'payment', payment: linkReference };
  }
  if (event.startsWith('payout.') || event.startsWith('transfer.')) {
    await onChapaTransferEvent(db, received);
    return { event, handled: 'transfer' };
  }
  return { event, handled: 'ignored' };
}
