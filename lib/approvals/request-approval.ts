import { recordAudit } from '../audit';
import type { CardRow } from '../cards/card-view';
import type { Db } from '../db/client';
import { approvalRequests } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { placeHold } from '../holds/place-hold';
import { newReference } from '../ids';
import { businessAccountId, heldAccountId } from '../ledger/accounts';
import type { Mode } from '../validation';
import { APPROVAL_TTL_MS, type ApprovalKind, type ApprovalRequested } from './approval-request';

export interface RequestApprovalOptions {
  businessId: number;
  mode: Mode;
  makerUserId: number;
  kind: ApprovalKind;
  card: CardRow;
  /** The operation's amount (what the threshold is compared with). */
  amount: number;
  /** What is held until the decision: a payout's whole debit (fee included), an adjustment's amount. */
  held: number;
  /** Whose money is held: the card's, or (an adjustment that adds to the card) the business account's. */
  holdFrom: 'card' | 'business';
  /** The operation's typed options, run as they are on approval. */
  options: Record<string, unknown>;
  reasonCode?: string | null;
  note?: string | null;
}

/**
 * Puts an operation in the approval queue: its money is held at once (so the
 * card's available balance drops and nothing can spend it twice), the request
 * is written, and the audit line names the maker, all in one transaction.
 */
export async function requestApproval(db: Db, opts: RequestApprovalOptions): Promise<ApprovalRequested> {
  const { card } = opts;
  const [held, business] = await Promise.all([
    heldAccountId(db, opts.businessId, opts.mode, card.currency),
    businessAccountId(db, opts.businessId, opts.mode, card.currency),
  ]);
  const reference = newReference('apr');
  const expiresAt = new Date(Date.now() + APPROVAL_TTL_MS);
  const actor = { type: 'user' as const, id: String(opts.makerUserId) };
  return inTransaction(db, async (tx) => {
    const fromCard = opts.holdFrom === 'card';
    const hold = await placeHold(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      currency: card.currency,
      sourceAccountId: fromCard ? card.account_id : business,
      heldAccountId: held,
      cardId: fromCard ? card.id : null,
      amount: opts.held,
      purpose: reference,
      actor,
      onInsufficient: () =>
        fromCard
          ? new ServiceError('insufficient_balance', 'The card does not hold enough available money for this.', { field: 'amount' })
          : new ServiceError('insufficient_balance', `The business's ${card.currency} account does not hold enough for this.`, { field: 'amount' }),
    });
    await tx.insert(approvalRequests).values({
      reference,
      businessId: opts.businessId,
      mode: opts.mode,
      kind: opts.kind,
      currency: card.currency,
      amount: opts.amount,
      cardId: card.id,
      cardNumber: card.card_number,
      options: opts.options,
      makerUserId: opts.makerUserId,
      reasonCode: opts.reasonCode ?? null,
      note: opts.note || null,
      expiresAt,
      holdId: hold.holdId,
    });
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor,
      action: 'approval.requested',
      target: card.card_number,
      details: {
        reference,
        kind: opts.kind,
        direction: opts.options.direction ?? null,
        amount: opts.amount,
        held: opts.held,
        currency: card.currency,
        reason_code: opts.reasonCode ?? null,
        note: opts.note || null,
      },
    });
    return { reference, kind: opts.kind, currency: card.currency, amount: opts.amount, held: opts.held, expiresAt: expiresAt.toISOString() };
  });
}
