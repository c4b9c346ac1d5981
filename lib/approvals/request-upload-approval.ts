import { recordAudit } from '../audit';
import type { Tx } from '../db/client';
import { approvalRequests } from '../db/schema';
import { ServiceError } from '../errors';
import { placeHold } from '../holds/place-hold';
import { newReference } from '../ids';
import type { Currency, Mode } from '../validation';
import { APPROVAL_TTL_MS } from './approval-request';

/** What one source card's rows of an upload debit together (amounts, and fees the card pays). */
export interface UploadCardDebit {
  cardId: number;
  cardNumber: string;
  accountId: number;
  currency: Currency;
  debit: number;
}

export interface RequestUploadApprovalOptions {
  businessId: number;
  mode: Mode;
  makerUserId: number;
  upload: { reference: string; fileName: string; totals: Record<string, { rows: number; amount: number; fee: number }> };
  cards: UploadCardDebit[];
  /** The business's held account per currency (heldAccountId, resolved before the transaction). */
  heldAccounts: Partial<Record<Currency, number>>;
}

/**
 * A payout upload waiting for a second person, as an approval request like a
 * form payout's, in the caller's transaction (the one that marks the upload
 * waiting): each source card's whole debit for the file is held at once (so
 * its available balance drops and nothing else can spend it), refused whole
 * when a card does not hold it. Decided, expired and audited as any request
 * (decide-approval.ts, expire-approvals.ts); approval runs the upload.
 */
export async function requestUploadApproval(tx: Tx, opts: RequestUploadApprovalOptions): Promise<{ reference: string; expiresAt: Date }> {
  const reference = newReference('apr');
  const expiresAt = new Date(Date.now() + APPROVAL_TTL_MS);
  const actor = { type: 'user' as const, id: String(opts.makerUserId) };
  // Each hold locks its card's account: taken in id order, as a batch takes them.
  for (const card of [...opts.cards].sort((a, b) => a.accountId - b.accountId)) {
    const held = opts.heldAccounts[card.currency];
    if (held === undefined) throw new Error(`no held account resolved for ${card.currency}`);
    await placeHold(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      currency: card.currency,
      sourceAccountId: card.accountId,
      heldAccountId: held,
      cardId: card.cardId,
      amount: card.debit,
      purpose: reference,
      actor,
      onInsufficient: () =>
        new ServiceError(
          'insufficient_balance',
          `The card ending ${card.cardNumber.slice(-4)} does not hold the ${card.currency} its rows pay out (fees included); nothing was held.`,
        ),
      // A card that expired since the preview: its rows could never be paid.
      onClosed: () => new ServiceError('card_disabled', `The card ending ${card.cardNumber.slice(-4)} has expired since the preview; nothing was held.`),
    });
  }
  const currencies = Object.keys(opts.upload.totals) as Currency[];
  const currency = currencies.length === 1 ? currencies[0] : null;
  const amount = currency ? opts.upload.totals[currency].amount : 0;
  await tx.insert(approvalRequests).values({
    reference,
    businessId: opts.businessId,
    mode: opts.mode,
    kind: 'upload',
    currency,
    amount,
    cardId: null,
    cardNumber: null,
    options: { upload_reference: opts.upload.reference, file_name: opts.upload.fileName, totals: opts.upload.totals },
    makerUserId: opts.makerUserId,
    expiresAt,
    holdId: null,
  });
  await recordAudit(tx, {
    businessId: opts.businessId,
    mode: opts.mode,
    actor,
    action: 'approval.requested',
    target: opts.upload.reference,
    details: {
      reference,
      kind: 'upload',
      direction: null,
      amount,
      held: currency ? opts.cards.reduce((sum, c) => sum + c.debit, 0) : null,
      currency,
      cards: opts.cards.length,
      reason_code: null,
      note: null,
    },
  });
  return { reference, expiresAt };
}
