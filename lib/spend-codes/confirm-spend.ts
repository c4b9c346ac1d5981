import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor, ActorType } from '../actor';
import type { Db, DbOrTx } from '../db/client';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { captureInTransaction, prepareCapture } from '../holds/capture-hold';
import type { TillHold } from '../holds/till-hold-view';
import { prepareRedemption, type Redemption, spendRedemption } from '../redemptions/redeem-card';
import type { Mode } from '../validation';
import { codeMatches, SPEND_CODE_TRIES } from './spend-code';

/** The body of POST /card/confirmations/{confirmation_reference}. */
export const confirmSpendSchema = z.object({
  code: z
    .string({ error: (iss) => (iss.input === undefined ? 'code is required.' : 'code must be a string of 6 digits.') })
    .trim()
    .regex(/^\d{6}$/, { error: 'code must be the 6 digits the card’s phone got.' }),
});

export interface ConfirmSpendOptions extends z.output<typeof confirmSpendSchema> {
  businessId: number;
  mode: Mode;
  /** Who typed the code (kept on the confirmation); the spend itself is recorded as the one who asked for it. */
  actor: Actor;
  reference: string;
}

interface ConfirmationRow {
  id: number;
  reference: string;
  kind: 'redemption' | 'capture';
  card_number: string;
  hold_reference: string | null;
  amount: string;
  merchant_reference: string | null;
  location_id: number | null;
  actor_type: ActorType;
  actor_id: string | null;
  code_salt: string;
  attempts: number;
  expired: boolean;
  used_at: string | null;
  spend_reference: string | null;
}

async function loadConfirmation(db: DbOrTx, o: ConfirmSpendOptions, lock: boolean): Promise<ConfirmationRow> {
  const reference = o.reference.trim();
  if (!reference) throw new ServiceError('invalid_request', 'The confirmation reference is missing from the path.');
  const { rows } = await db.execute<ConfirmationRow & Record<string, unknown>>(sql`
    SELECT s.id, s.reference, s.kind, c.card_number, h.reference AS hold_reference, s.amount, s.merchant_reference, s.location_id,
           s.actor_type, s.actor_id, s.code_salt, s.attempts, s.expires_at <= now() AS expired, s.used_at, s.spend_reference
      FROM spend_confirmations s JOIN cards c ON c.id = s.card_id LEFT JOIN holds h ON h.id = s.hold_id
     WHERE s.reference = ${reference} AND s.business_id = ${o.businessId} AND s.mode = ${o.mode}
     ${lock ? sql`FOR UPDATE OF s` : sql``}`);
  if (!rows[0]) throw new ServiceError('confirmation_not_found', 'No confirmation with this reference belongs to your business.');
  return rows[0];
}

/** Why a confirmation takes no code any more, whatever the code: used, ended by wrong codes, or expired. */
function closedRefusal(row: ConfirmationRow): ServiceError | null {
  if (row.used_at) {
    return new ServiceError('confirmation_used', `This confirmation was completed (${row.spend_reference}); a code works once and nothing more was spent.`);
  }
  if (row.attempts >= SPEND_CODE_TRIES) {
    return new ServiceError('confirmation_ended', 'Three wrong codes ended this confirmation. Start the redemption or capture again for a new code.');
  }
  if (row.expired)
    return new ServiceError('confirmation_expired', 'The code expired (it works for 5 minutes). Start the redemption or capture again for a new code.');
  return null;
}

function wrongCode(left: number): ServiceError {
  const detail =
    left > 0
      ? `The code is wrong; ${left} ${left === 1 ? 'try is' : 'tries are'} left.`
      : 'The code is wrong, for the third time: this confirmation has ended. Start the redemption or capture again for a new code.';
  return new ServiceError('invalid_code', detail, { field: 'code' });
}

/**
 * Completes a redemption or capture that waited for the cardholder's code. In one transaction the confirmation
 * is locked (two confirms at once: the second waits, then finds it used), its state and the code are checked, and
 * the spend runs through its usual path (spendRedemption, captureInTransaction: the same checks, posting, event and
 * audit line) before the confirmation is marked used. A wrong code is counted and committed on its own; the third
 * ends the confirmation. A spend the card or hold refuses now (too little left, the hold voided) rolls back whole
 * and leaves the confirmation as it was.
 */
export async function confirmSpend(db: Db, o: ConfirmSpendOptions): Promise<Redemption | TillHold> {
  const probe = await loadConfirmation(db, o, false);
  const closed = closedRefusal(probe);
  if (closed) throw closed;
  const asked: Actor = { type: probe.actor_type, id: probe.actor_id };
  const common = { businessId: o.businessId, mode: o.mode, actor: asked, amount: Number(probe.amount), locationId: probe.location_id };
  // Accounts are found (or made) before the money transaction opens, as the spends themselves do.
  const prepared =
    probe.kind === 'redemption'
      ? ({
          kind: 'redemption',
          p: await prepareRedemption(db, { ...common, cardNumber: probe.card_number, merchantReference: probe.merchant_reference ?? undefined }),
        } as const)
      : ({ kind: 'capture', p: await prepareCapture(db, { ...common, reference: probe.hold_reference ?? '' }) } as const);
  const outcome = await inTransaction(db, async (tx): Promise<{ refusal: ServiceError } | { spent: Redemption | TillHold }> => {
    const row = await loadConfirmation(tx, o, true);
    const refusal = closedRefusal(row);
    if (refusal) return { refusal };
    if (!codeMatches(o.mode, row.code_salt, o.code)) {
      const { rows } = await tx.execute<{ attempts: number }>(
        sql`UPDATE spend_confirmations SET attempts = attempts + 1 WHERE id = ${row.id} RETURNING attempts`,
      );
      return { refusal: wrongCode(SPEND_CODE_TRIES - Number(rows[0].attempts)) };
    }
    const spent = prepared.kind === 'redemption' ? await spendRedemption(tx, prepared.p) : await captureInTransaction(tx, prepared.p);
    const spendReference = 'hold_reference' in spent ? spent.hold_reference : spent.reference;
    await tx.execute(sql`
      UPDATE spend_confirmations SET used_at = now(), spend_reference = ${spendReference}, confirmed_by_type = ${o.actor.type},
             confirmed_by_id = ${o.actor.id}
       WHERE id = ${row.id}`);
    return { spent };
  });
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome.spent;
}
