import type { Db } from '../../db/client';
import type { ChapaEvent } from './receive-chapa-webhook';
import { checkRailRequestNow } from './rail-requests';

/**
 * Chapa's payout and transfer events (`payout.success`, the literal
 * `payout.failed/cancelled`, ...) only name the transfer to look at: verify
 * decides how it ended, so a duplicate, late or out-of-order event asks again
 * and finds the payout settled already. A reference we never queued is ignored.
 */
export async function onChapaTransferEvent(db: Db, event: ChapaEvent): Promise<void> {
  const reference = event.reference ?? event.txRef;
  if (!reference || reference.length > 100) return;
  await checkRailRequestNow(db, reference);
}
