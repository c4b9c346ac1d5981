import type { Db } from '../lib/db/client';
import { enqueueEvent } from '../lib/webhooks/outbox';
import { paymentEventPayload } from '../lib/webhooks/payloads';

/** Writes a test-mode payment.success event to the outbox, as a payment would; n makes its amount and reference its own. */
export function emitPaymentEvent(db: Db, businessId: number, n: number | string): Promise<string> {
  const now = new Date();
  const payload = paymentEventPayload({
    status: 'success',
    mode: 'test',
    paymentType: 'link',
    currency: 'ETB',
    amount: 100 + (typeof n === 'number' ? n : 0),
    serviceFee: 0,
    serviceReference: `lnk_${n}`,
    createdAt: now,
    updatedAt: now,
  });
  return db.transaction((tx) => enqueueEvent(tx, { businessId, mode: 'test', type: 'payment.success', payload, subjectReference: `lnk_${n}` }));
}
