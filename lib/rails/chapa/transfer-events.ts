import type { Db } from '../../db/client';
import type { ChapaEvent } from './receive-chapa-webhook';

/**
 * The dispatch point for Chapa's payout and transfer events (`payout.success`,
 * `payout.failed/cancelled`, ...): the payouts side settles its payouts here.
 * Until then they are acknowledged and ignored (a payout is settled by its own verify).
 */
export async function onChapaTransferEvent(_db: Db, _event: ChapaEvent): Promise<void> {}
