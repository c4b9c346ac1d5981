import { sql, type SQL } from 'drizzle-orm';

/** What a business account movement is, in the report's words; each maps to the ledger transaction kinds it covers. */
export const STATEMENT_KINDS = [
  'deposit',
  'topup',
  'topup_returned',
  'card_swept',
  'b2b_received',
  'payout_refund',
  'payment',
  'payment_refund',
  'payment_refund_returned',
  'adjustment_to_card',
  'adjustment_from_card',
  'held',
  'released',
  'redemption',
  'other',
] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

const LEDGER_KIND: Record<Exclude<StatementKind, 'other'>, string> = {
  deposit: 'business_deposit',
  topup: 'transfer',
  topup_returned: 'transfer_reversal',
  card_swept: 'card_cancellation',
  b2b_received: 'payout_b2b',
  payout_refund: 'payout_bank_reversal',
  payment: 'payment',
  payment_refund: 'payment_refund',
  payment_refund_returned: 'payment_refund_reversal',
  adjustment_to_card: 'adjustment_increase',
  adjustment_from_card: 'adjustment_decrease',
  held: 'hold',
  released: 'hold_release',
  redemption: 'card_redemption',
};

export const STATEMENT_KIND_LABELS: Record<StatementKind, string> = {
  deposit: 'Deposits',
  topup: 'Top-ups paid to cards',
  topup_returned: 'Top-ups returned',
  card_swept: 'Cancelled cards swept in',
  b2b_received: 'Business payouts received',
  payout_refund: 'Failed payouts refunded',
  payment: 'Payments for closed cards',
  payment_refund: 'Refunds for closed cards',
  payment_refund_returned: 'Refused refunds returned',
  adjustment_to_card: 'Adjustments added to cards',
  adjustment_from_card: 'Adjustments taken from cards',
  held: 'Held for approval',
  released: 'Released from hold',
  redemption: 'Cards redeemed at the business',
  other: 'Other movements',
};

export const kindOf = (ledgerKind: string): StatementKind =>
  (Object.entries(LEDGER_KIND).find(([, k]) => k === ledgerKind)?.[0] as StatementKind | undefined) ?? 'other';

/** Describes a line in words: the kind, and the counterpart by card number, payout reference or paying business's name. */
export function describeLine(l: { kind: StatementKind; ledgerKind: string; cardNumber: string | null; payerName: string | null; amount: number }): string {
  const card = l.cardNumber ? `card ${l.cardNumber}` : 'a card';
  switch (l.kind) {
    case 'deposit':
      return 'Deposit to the business account';
    case 'topup':
      return `Top-up paid to ${card}`;
    case 'topup_returned':
      return `Top-up to ${card} returned: it could not be delivered`;
    case 'card_swept':
      return `Balance of cancelled ${card} swept in`;
    case 'b2b_received':
      return `Business payout received from ${l.payerName ?? 'another business'}`;
    case 'payout_refund':
      return `Refund of failed payout from ${card}, which was cancelled or disabled`;
    case 'payment':
      return `Payment for ${card}, which was cancelled or disabled`;
    case 'payment_refund':
      return `Refund of a payment for ${card}, which was cancelled or closed`;
    case 'payment_refund_returned':
      return `Refused refund of a payment for ${card} returned, the card being cancelled or disabled`;
    case 'adjustment_to_card':
      return `Adjustment added to ${card}`;
    case 'adjustment_from_card':
      return `Adjustment taken back from ${card}`;
    case 'held':
      return `Held until a teammate approves a change to ${card}`;
    case 'released':
      return `Hold for ${card} released`;
    case 'redemption':
      return `Redemption of ${card}`;
    default:
      return `${l.ledgerKind.replaceAll('_', ' ')} ${l.amount < 0 ? 'paid out' : 'received'}`;
  }
}

export function kindWhere(kind: StatementKind | undefined): SQL {
  if (!kind) return sql`true`;
  if (kind !== 'other') return sql`t.kind = ${LEDGER_KIND[kind]}`;
  return sql`t.kind NOT IN (${sql.join(
    Object.values(LEDGER_KIND).map((k) => sql`${k}`),
    sql`, `,
  )})`;
}
