import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { payouts } from '../db/schema';
import type { Mode } from '../validation';

/** The fields of a payout its creation answer is made of. */
export interface CreatedPayout {
  reference: string;
  sourceCardNumber: string | null;
  destinationCardNumber: string | null;
  amount: number;
  serviceFee: number;
  chargePayer: string;
  currency: string;
  createdAt: Date;
  updatedAt: Date;
}

/** `POST /card/payouts`'s answers by payout type (SPEC.md): one rule for the first answer and its replay. */
export const cardToCardAnswer = (p: CreatedPayout) => ({
  initiator_reference: p.reference,
  source_card_number: p.sourceCardNumber,
  destination_card_number: p.destinationCardNumber,
  amount: p.amount,
  service_fee: p.serviceFee,
  charge_payer: p.chargePayer,
  currency: p.currency,
});

export const businessPayoutAnswer = (p: CreatedPayout) => ({
  provider_reference: p.reference,
  status: 'SUCCESS',
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

export const bankPayoutAnswer = (p: CreatedPayout) => ({ provider_reference: p.reference, status: 'PENDING' });

const ANSWERS = { card_to_card: cardToCardAnswer, b2b: businessPayoutAnswer, bank: bankPayoutAnswer };

/**
 * The answer of a payout whose request committed but whose answer was never stored (the
 * process died between the two): rebuilt from the payout the committed statement wrote, as
 * it was answered then. `committed` is what that statement returned (its `payout_id`).
 * Undefined when it names no payout of this business and mode.
 */
export async function committedPayoutAnswer(db: Db, o: { businessId: number; mode: Mode; committed: unknown }) {
  const id = Number((o.committed as { payout_id?: unknown } | null)?.payout_id);
  if (!Number.isSafeInteger(id) || id <= 0) return undefined;
  const [row] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.id, id), eq(payouts.businessId, o.businessId), eq(payouts.mode, o.mode)));
  // A bank payout refused by its rail was answered as an error, not as the pending payout it was for a moment.
  if (!row || row.status === 'failed') return undefined;
  return firstPayoutAnswer(row);
}

/** A payout's creation answer as it was first given, from its row. */
export function firstPayoutAnswer(row: typeof payouts.$inferSelect) {
  // A new payout's created_at and updated_at are one instant (the app server's clock); the row's updated_at moves on with its status.
  return ANSWERS[row.payoutType]({ ...row, updatedAt: row.createdAt });
}
