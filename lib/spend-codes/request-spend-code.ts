import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import type { DbOrTx, Tx } from '../db/client';
import { newReference } from '../ids';
import { queueMessageOf } from '../messages/queue-message';
import type { Currency, Mode } from '../validation';
import { ServiceError } from '../errors';
import { newCodeSalt, SPEND_CODE_TRIES, SPEND_CODE_TTL_SECONDS } from './spend-code';

/** What a redemption or capture answers (202) when it waits for the cardholder's code. */
export interface SpendCodeRequired {
  /** scf_…: the path of POST /card/confirmations/{confirmation_reference}. */
  confirmation_reference: string;
  kind: 'redemption' | 'capture';
  card_number: string;
  currency: string;
  amount: number;
  /** The capture's hold; absent for a redemption. */
  hold_reference?: string;
  /** The code works until then (5 minutes). */
  expires_at: string;
}

export const isSpendCodeRequired = (answer: object): answer is SpendCodeRequired => 'confirmation_reference' in answer;

/** The amount over which the business's spends of this mode and currency need the cardholder's code; null: never. */
export async function spendCodeOver(db: DbOrTx, businessId: number, mode: Mode, currency: Currency | string): Promise<number | null> {
  const { rows } = await db.execute<{ spend_code_over: string | null }>(sql`
    SELECT spend_code_over FROM business_limits WHERE business_id = ${businessId} AND mode = ${mode} AND currency = ${currency}`);
  const over = rows[0]?.spend_code_over;
  return over === null || over === undefined ? null : Number(over);
}

export interface RequestSpendCodeOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  card: { id: number; card_number: string; currency: string };
  amount: number;
  merchantReference?: string;
  locationId: number | null;
  hold?: { id: number; reference: string };
}

/**
 * In the caller's transaction (which checked the spend could be made now): the confirmation that waits for the code,
 * and the SMS carrying it to the card's phone. The code is sent whatever the card's and the business's message
 * switches (the cashier cannot finish without it); the message's facts name the confirmation, never the code.
 */
export async function requestSpendCode(tx: Tx, o: RequestSpendCodeOptions): Promise<SpendCodeRequired> {
  await refuseWhilePaused(tx, o);
  const reference = newReference('scf');
  const kind = o.hold ? 'capture' : 'redemption';
  const { rows } = await tx.execute<{ expires_at: string }>(sql`
    INSERT INTO spend_confirmations (reference, business_id, mode, card_id, kind, hold_id, amount, merchant_reference, location_id,
                                     actor_type, actor_id, code_salt, expires_at)
    VALUES (${reference}, ${o.businessId}, ${o.mode}, ${o.card.id}, ${kind}, ${o.hold?.id ?? null}, ${o.amount}, ${o.merchantReference ?? null},
            ${o.locationId}, ${o.actor.type}, ${o.actor.id}, ${newCodeSalt()}, now() + make_interval(secs => ${SPEND_CODE_TTL_SECONDS}))
    RETURNING expires_at::text`);
  await queueMessageOf(tx, o.card.id, { confirmation_reference: reference, amount: o.amount }, { kind: 'spend_code', only: 'sms' });
  return {
    confirmation_reference: reference,
    kind,
    card_number: o.card.card_number,
    currency: o.card.currency,
    amount: o.amount,
    ...(o.hold ? { hold_reference: o.hold.reference } : {}),
    expires_at: new Date(rows[0].expires_at).toISOString(),
  };
}

/** Wrong codes a card may see in a day, and codes that may wait for it at once, before no new one is sent. */
const WRONG_CODES_PER_DAY = 2 * SPEND_CODE_TRIES;
const WAITING_AT_ONCE = 3;

/**
 * Three tries end one confirmation, but a new request makes a new one: without a bound per card, someone who can
 * redeem (a till, a key) could keep guessing a million codes three at a time, and text the cardholder at each
 * round. Requests for one card are taken one at a time (the advisory lock), so two at once cannot both slip under.
 */
async function refuseWhilePaused(tx: Tx, o: RequestSpendCodeOptions): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('spend_code_card'), (${o.card.id}::bigint % 2147483647)::int)`);
  const { rows } = await tx.execute<{ wrong: number; waiting: number }>(sql`
    SELECT coalesce(sum(attempts) FILTER (WHERE created_at > now() - interval '24 hours'), 0)::int AS wrong,
           count(*) FILTER (WHERE used_at IS NULL AND attempts < ${SPEND_CODE_TRIES} AND expires_at > now())::int AS waiting
      FROM spend_confirmations
     WHERE card_id = ${o.card.id} AND business_id = ${o.businessId} AND mode = ${o.mode} AND created_at > now() - interval '24 hours'`);
  const { wrong, waiting } = rows[0];
  if (wrong >= WRONG_CODES_PER_DAY) {
    throw new ServiceError(
      'spend_codes_paused',
      `This card had ${wrong} wrong codes in the last 24 hours: no new code is sent to its phone until they are a day old.`,
    );
  }
  if (waiting >= WAITING_AT_ONCE) {
    throw new ServiceError('spend_codes_paused', `${waiting} codes already wait for this card: use one of them, or wait until they expire (5 minutes).`);
  }
}
