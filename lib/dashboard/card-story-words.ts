import type { TillHoldStatus } from '../holds/till-hold-view';
import { groupedUnitsText } from '../money-text';

/** The words a card's story is told in (lib/dashboard/card-story.ts): what staff read out on the phone. */

export type PaymentState = 'pending' | 'paid' | 'failed' | 'cancelled';

/**
 * A value in a story sentence said in another language than these English words: text as it is (a reason someone
 * typed, a reference), an amount in the card's currency, a calendar day (YYYY-MM-DD), another catalogue term, or an
 * adjustment's reason code.
 */
export type StoryValue = string | number | { money: number } | { day: string } | { term: string } | { approvalReason: string };

/** One sentence of the story by its key in the dashboard's catalogues (CardStory.said.*) and its values. */
export interface StoryPhrase {
  key: string;
  values?: Record<string, StoryValue>;
}

/** An event's title and detail as phrases: what a dashboard shows when it speaks another language than the title's English. */
export interface StorySaid {
  title: StoryPhrase;
  detail: StoryPhrase[];
}

/** Ledger transaction kinds in words a support agent can read out on the phone. */
export const MOVEMENT_LABELS: Record<string, string> = {
  payment: 'Top-up payment',
  transfer_settlement: 'Top-up from business balance',
  transfer_reversal: 'Top-up reversed',
  payout_card_to_card: 'Card-to-card payout',
  payout_b2b: 'Business payout',
  payout_bank: 'Bank payout',
  payout_bank_reversal: 'Bank payout returned',
  payment_refund: 'Payment refunded to the payer',
  payment_refund_reversal: 'Refund refused by the provider: returned',
  card_cancellation: 'Card cancelled: balance to business account',
  hold: 'Held for approval',
  hold_release: 'Hold released',
  adjustment_increase: 'Adjustment: added by the business',
  adjustment_decrease: 'Adjustment: taken back by the business',
  card_redemption: 'Redeemed at the business',
  card_expiry: 'Card expired: balance to breakage',
};

/** A till hold's ledger lines on the card: placing it, giving it back, and (captured) spending it. */
export function tillHoldTitle(kind: string, state: TillHoldStatus): string {
  if (kind === 'hold') return 'Held by a till';
  if (kind === 'card_redemption') return 'Hold captured: redeemed at the business';
  return state === 'captured' ? 'Hold captured: held money back on the card' : `Hold ${state}: money back on the card`;
}

/** The same, as phrases. */
export function tillHoldSaid(kind: string, state: TillHoldStatus): StoryPhrase {
  if (kind === 'hold') return { key: 'till.held' };
  if (kind === 'card_redemption') return { key: 'till.redeemed' };
  return { key: `till.back.${state}` };
}

export function tillHoldDetail(state: TillHoldStatus, captured: string): string {
  switch (state) {
    case 'held':
      return 'Not available until the till captures or voids it, or it expires.';
    case 'captured':
      return `Captured ${captured}; the rest went back to the card.`;
    case 'voided':
      return 'Voided by the till: all of it went back to the card.';
    case 'expired':
      return 'Expired uncaptured: all of it went back to the card.';
  }
}

const APPROVAL_ACTIONS: Record<string, string> = {
  'approval.requested': 'sent for approval',
  'approval.approved': 'approved',
  'approval.rejected': 'rejected',
  'approval.withdrawn': 'withdrawn by the teammate who asked',
  'approval.expired': 'expired after 72 hours: its money was released',
  'approval.failed': 'approved, but could not be done: its money was released',
};

export const AUDIT_ACTIONS = [
  'card.disabled',
  'card.enabled',
  'card.provider_disabled',
  'card.provider_enabled',
  'card.cancelled',
  'card.expired',
  'card.expiry_extended',
  'card.phone_corrected',
  ...Object.keys(APPROVAL_ACTIONS),
];

/** What an approval waited on, as a catalogue term. */
function approvalSubject(d: Record<string, unknown>): string {
  if (d.kind === 'adjustment') return d.direction === 'decrease' ? 'adjustmentDecrease' : 'adjustmentIncrease';
  return d.kind === 'refund' ? 'refund' : 'payout';
}

/** An approval's audit line as phrases (see approvalEvent). */
function approvalSaid(action: string, d: Record<string, unknown>): StorySaid {
  const reason = typeof d.reason_code === 'string' ? { approvalReason: d.reason_code } : null;
  const detail: StoryPhrase[] = [{ key: 'amountReference', values: { amount: { money: Number(d.amount) }, reference: String(d.reference) } }];
  if (action === 'approval.requested' && reason)
    detail.push(d.note ? { key: 'reasonNote', values: { reason, note: String(d.note) } } : { key: 'reason', values: { reason } });
  if (action !== 'approval.requested' && d.note) detail.push({ key: 'note', values: { note: String(d.note) } });
  if (typeof d.reason === 'string' && action === 'approval.failed') detail.push({ key: 'text', values: { text: d.reason } });
  return {
    title: { key: 'approval', values: { subject: { term: approvalSubject(d) }, outcome: { term: `approval.${action.slice('approval.'.length)}` } } },
    detail,
  };
}

/** An approval's audit line in words: what waited (a payout, or an adjustment up or down), how much, and what became of it. */
export function approvalEvent(action: string, d: Record<string, unknown>): { title: string; detail: string | null; said: StorySaid } {
  const what =
    d.kind === 'adjustment'
      ? d.direction === 'decrease'
        ? 'Adjustment (take from the card)'
        : 'Adjustment (add to the card)'
      : d.kind === 'refund'
        ? 'Refund'
        : 'Payout';
  const amount = `${String(d.currency)} ${groupedUnitsText(Number(d.amount))}`;
  const reason = typeof d.reason_code === 'string' ? String(d.reason_code).replaceAll('_', ' ') : null;
  const parts = [
    `${amount} (${String(d.reference)}).`,
    action === 'approval.requested' && reason ? `Reason: ${reason}${d.note ? `: ${String(d.note)}` : ''}.` : null,
    action !== 'approval.requested' && d.note ? `Note: ${String(d.note)}` : null,
    typeof d.reason === 'string' && action === 'approval.failed' ? String(d.reason) : null,
  ];
  return { title: `${what} ${APPROVAL_ACTIONS[action]}`, detail: parts.filter(Boolean).join(' '), said: approvalSaid(action, d) };
}

/** The label of who did something, from the actor columns and the joined user email and key prefix. */
export function actorLabel(r: { actor_type?: unknown; email?: unknown; prefix?: unknown }): string | null {
  switch (r.actor_type) {
    case 'user':
      return r.email ? String(r.email) : 'a removed team member';
    case 'api_key':
      return r.prefix ? `API key ${r.prefix}…` : 'an API key';
    case 'admin':
      return 'the provider';
    default:
      return null;
  }
}

export function paymentNoun(type: unknown): string {
  return type === 'hosted' ? 'Payment link' : 'Wallet charge';
}

export function paymentState(status: unknown): PaymentState {
  if (status === 'success') return 'paid';
  if (status === 'failed' || status === 'cancelled') return status;
  return 'pending';
}
