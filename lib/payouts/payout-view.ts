import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { payouts } from '../db/schema';
import { ServiceError } from '../errors';
import type { EventCustomer, PayoutEventInput } from '../webhooks/payloads';
import type { Mode } from '../validation';

export type PayoutRow = typeof payouts.$inferSelect;
export type PayoutType = 'card_to_card' | 'bank' | 'b2b';

const iso = (d: Date | string) => new Date(d).toISOString();

/** SPEC.md's payout record, keys in its order, with only the reference field of the payout's type; card payouts only (a ledger top-up has no source card). */
export function toPayoutListItem(p: PayoutRow) {
  const c2c = p.payoutType === 'card_to_card';
  return {
    payout_type: p.payoutType,
    status: p.status,
    currency: p.currency,
    amount: p.amount,
    service_fee: p.serviceFee,
    ...(c2c ? { initiator_reference: p.reference } : { provider_reference: p.reference }),
    source_card_number: p.sourceCardNumber!,
    ...(c2c && { destination_card_number: p.destinationCardNumber }),
    ...(p.payoutType === 'b2b' && { merchant_id: p.merchantId }),
    mode: p.mode,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

/**
 * SPEC.md's payout status record. completed_at is null while the payout is
 * pending rather than left out, so the record keeps one shape that clients can
 * poll and compare without checking for a missing key.
 */
export function toPayoutStatus(p: PayoutRow, queried: string) {
  return {
    reference: queried,
    provider_ref: p.reference,
    amount: p.amount,
    service_fee: p.serviceFee,
    currency: p.currency,
    status: p.status,
    created_at: iso(p.createdAt),
    completed_at: p.completedAt ? iso(p.completedAt) : null,
  };
}

/** The webhook event input for a payout that reached success or failed. */
export function payoutEventInput(p: PayoutRow, status: 'success' | 'failed', customer?: EventCustomer): PayoutEventInput {
  return {
    status,
    mode: p.mode,
    payoutType: p.payoutType,
    currency: p.currency,
    amount: p.amount,
    reference: p.reference,
    customer,
    sourceCardNumber: p.sourceCardNumber,
    destinationCardNumber: p.isLedgerTopup ? null : p.destinationCardNumber,
    bankSlug: p.bankSlug,
    accountNumber: p.accountNumber,
    accountName: p.accountName,
    merchantId: p.merchantId,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** The source card's holder, for the event's customer object. */
export async function payoutCustomer(db: DbOrTx, p: PayoutRow): Promise<EventCustomer | undefined> {
  if (!p.sourceCardId) return undefined;
  const result = await db.execute<{ first_name: string | null; last_name: string | null; email: string | null; phone_number: string }>(sql`
    SELECT n.first_name, n.last_name, n.email, cu.phone_number FROM cards c JOIN customers cu ON cu.id = c.customer_id
    LEFT JOIN customer_names n ON n.business_id = ${p.businessId} AND n.customer_id = c.customer_id
    WHERE c.id = ${p.sourceCardId}`);
  return result.rows[0];
}

/** Blank references are SPEC.md's "Invalid request"; unknown ones, or another business's or mode's, are not found. */
export async function requirePayout(db: DbOrTx, businessId: number, mode: Mode, reference: string | undefined): Promise<PayoutRow> {
  const ref = (reference ?? '').trim();
  if (!ref) throw new ServiceError('invalid_request', 'The payout reference is missing from the path.');
  const [row] = await db
    .select()
    .from(payouts)
    .where(and(eq(payouts.reference, ref), eq(payouts.businessId, businessId), eq(payouts.mode, mode)));
  if (!row) throw new ServiceError('payout_not_found', 'No payout with this reference belongs to your business.');
  return row;
}
