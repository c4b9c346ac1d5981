import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import type { DbOrTx } from '../db/client';
import { postTransaction } from '../ledger/post-transaction';

export interface ReleaseHoldOptions {
  holdId: number;
  actor: Actor;
  /** The business account of the hold's mode and currency: where the money goes when its source was closed meanwhile (a cancelled card). */
  businessAccountId: number;
  /** How a till hold ends with this release (lib/holds/end-till-hold.ts): recorded by the same claim. */
  outcome?: 'captured' | 'voided' | 'expired';
  /** A capture's amount; the claim fails when the hold is worth less, or has expired. */
  capturedAmount?: number;
  /**
   * Gives back only this much (an upload's hold, one row's share at a time, in the transaction that spends it):
   * the hold stays open for the rest. At or over what it still holds, the hold is released whole.
   */
  part?: number;
}

export interface ReleasedHold {
  amount: number;
  /** The account the money went back to: the source, or the business account when the source was closed. */
  accountId: number;
  transactionId: number;
}

class SourceClosed extends Error {}

/** What a capture spent of a released hold (lib/holds/capture-hold.ts), written with the release. */
export interface HoldCapture {
  fee: number;
  transactionId: number;
}

/**
 * Gives held money back: one ledger transaction from the held account to the
 * hold's source, in the caller's transaction. The hold row is claimed first
 * (locked only if it is still open, so a hold is released once however many
 * callers race: the loser gets null) and written once, at the end: a second
 * update of a row this transaction wrote would re-check its card foreign key,
 * and that share lock on the card deadlocks with a till holding the card. A
 * source closed meanwhile (a card cancelled while its money was held) gets
 * nothing: the money goes to the business account, as a cancelled card's
 * balance does. `afterRelease` runs between the release and that write (a
 * capture spends there).
 */
export async function releaseHold(tx: DbOrTx, opts: ReleaseHoldOptions & { afterRelease?: () => Promise<HoldCapture> }): Promise<ReleasedHold | null> {
  const claimed = await tx.execute<{
    amount: number;
    source_account_id: number;
    purpose: string;
    business_id: number;
    mode: string;
    held_account_id: number;
  }>(sql`
    SELECT h.amount, h.source_account_id, h.purpose, h.business_id, h.mode, held.id AS held_account_id
    FROM holds h JOIN ledger_accounts held
      ON held.mode = h.mode AND held.currency = h.currency AND held.name = 'held:' || h.business_id
    WHERE h.id = ${opts.holdId} AND h.status = 'open'
      ${opts.capturedAmount === undefined ? sql`` : sql`AND h.amount >= ${opts.capturedAmount} AND h.expires_at > now()`}
    FOR UPDATE OF h`);
  const hold = claimed.rows[0];
  if (!hold) return null;
  const held = Number(hold.amount);
  const amount = opts.part === undefined ? held : Math.min(opts.part, held);
  const post = (accountId: number) =>
    postTransaction(tx, {
      mode: hold.mode as 'test' | 'live',
      kind: 'hold_release',
      businessId: Number(hold.business_id),
      reference: hold.purpose,
      actor: opts.actor,
      postings: [
        { accountId: Number(hold.held_account_id), amount: -amount },
        { accountId, amount },
      ],
      onClosed: () => new SourceClosed(),
    });
  let accountId = Number(hold.source_account_id);
  let posted: Awaited<ReturnType<typeof post>>;
  try {
    posted = await post(accountId);
  } catch (err) {
    if (!(err instanceof SourceClosed)) throw err;
    accountId = opts.businessAccountId;
    posted = await post(accountId);
  }
  const capture = await opts.afterRelease?.();
  if (amount < held) {
    await tx.execute(sql`UPDATE holds SET amount = amount - ${amount} WHERE id = ${opts.holdId}`);
    return { amount, accountId, transactionId: posted.transactionId };
  }
  await tx.execute(sql`
    UPDATE holds SET status = 'released', released_at = now(), release_transaction_id = ${posted.transactionId},
      outcome = ${opts.outcome ?? null}, captured_amount = ${opts.capturedAmount ?? null},
      capture_fee = ${capture?.fee ?? null}, capture_transaction_id = ${capture?.transactionId ?? null}
    WHERE id = ${opts.holdId}`);
  return { amount, accountId, transactionId: posted.transactionId };
}
