import type { Db } from '../../db/client';
import type { ChapaBody } from './chapa-answers';
import { checkRailRequestNow } from './rail-requests';

/** A verified event from Chapa: its name as sent, the payload, and the reference our side chose (tx_ref or reference). */
export interface ChapaEvent {
  event: string;
  payload: ChapaBody;
  txRef: string | null;
  reference: string | null;
}

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
