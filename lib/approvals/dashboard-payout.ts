import { eq } from 'drizzle-orm';
import { requireOwnCard } from '../cards/get-card';
import type { Db } from '../db/client';
import { businesses } from '../db/schema';
import { getLimits } from '../limits/business-limits';
import { limitExceededError } from '../limits/limit-refusal';
import { createPayout } from '../payouts/create-payout';
import { payoutParties } from '../payouts/payout-parties';
import { merchantRefusal, quotePayout } from '../payouts/payout-quote';
import { parsePayoutRequest } from '../payouts/payout-request';
import type { Mode } from '../validation';
import { payoutNeedsApproval } from './approval-thresholds';
import type { ApprovalRequested } from './approval-request';
import { requestApproval } from './request-approval';

export interface DashboardPayoutOptions {
  businessId: number;
  mode: Mode;
  userId: number;
  /** The body of POST /card/payouts, as the send form builds it. */
  input: Record<string, unknown>;
}

export type DashboardPayoutResult = { sent: true; reference: string } | { sent: false; approval: ApprovalRequested };

/**
 * A payout sent from the dashboard: paid at once, or, at or above the
 * currency's approval threshold, checked as the payout would be, its whole
 * debit held on the card, and queued for a second person. The API's payouts
 * never wait (the issue asks approval of the dashboard only).
 */
export async function sendDashboardPayout(db: Db, opts: DashboardPayoutOptions): Promise<DashboardPayoutResult> {
  const { type, input, chargePayer, feeFromAmount } = parsePayoutRequest(opts.input);
  const card = await requireOwnCard(db, opts.businessId, opts.mode, input.card_number);
  if (!(await payoutNeedsApproval(db, { businessId: opts.businessId, mode: opts.mode, currency: card.currency, amount: input.amount }))) {
    const created = await createPayout(db, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor: { type: 'user', id: String(opts.userId) },
      input: opts.input,
    });
    return { sent: true, reference: 'initiator_reference' in created ? created.initiator_reference : created.provider_reference };
  }
  const numbers = type === 'card_to_card' ? [input.card_number, input.destination_card_number] : [input.card_number];
  const { rule, cards } = await payoutParties(db, opts.businessId, opts.mode, type, numbers, true);
  const quote = quotePayout({
    businessId: opts.businessId,
    type,
    amount: input.amount,
    payer: { chargePayer, feeFromAmount },
    rule,
    source: cards.find((c) => c.card_number === input.card_number),
    destinationCard: type === 'card_to_card' ? { card: cards.find((c) => c.card_number === input.destination_card_number) } : undefined,
    bankSlug: type === 'bank' ? input.bank_slug : undefined,
    accountNumber: type === 'bank' ? input.account_number : undefined,
  });
  if (quote.refusals.length > 0) throw quote.refusals[0];
  // A payout over the largest allowed would only fail on approval: refuse it now rather than hold its money for days.
  const maxPayout = (await getLimits(db, opts.businessId, opts.mode)).find((l) => l.currency === card.currency)?.max_payout ?? null;
  if (maxPayout !== null && input.amount > maxPayout) throw limitExceededError({ limit: 'max_payout', value: maxPayout }, card.currency);
  if (type === 'b2b') {
    const [merchant] = await db.select({ id: businesses.id }).from(businesses).where(eq(businesses.merchantId, input.merchant_id));
    const refused = merchantRefusal(merchant, opts.businessId);
    if (refused) throw refused;
  }
  const approval = await requestApproval(db, {
    businessId: opts.businessId,
    mode: opts.mode,
    makerUserId: opts.userId,
    kind: 'payout',
    card,
    amount: input.amount,
    held: quote.debit,
    holdFrom: 'card',
    options: opts.input,
  });
  return { sent: false, approval };
}
