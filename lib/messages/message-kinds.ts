/**
 * The kinds of message a cardholder gets, a large spend's code, and a shop order's two (the recipient's gift, the
 * buyer's receipt); a business turns any of them off (businesses.message_kinds_off) but the code.
 */
export const MESSAGE_KINDS = [
  'card_issued',
  'money_added',
  'money_spent',
  'expiry_30_days',
  'expiry_7_days',
  'new_link',
  'spend_code',
  'gift_received',
  'order_receipt',
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Sent whatever the card's and the business's switches: the code a cashier needs to finish a large spend, and a shop gift's only word to its recipient (the link it brings replaces the card's last one). */
const ALWAYS_SENT = ['spend_code', 'gift_received'] as const;

/** The kinds a business may turn off (businesses.message_kinds_off). */
export const SWITCHABLE_MESSAGE_KINDS = MESSAGE_KINDS.filter(
  (k): k is Exclude<MessageKind, (typeof ALWAYS_SENT)[number]> => !(ALWAYS_SENT as readonly string[]).includes(k),
);

export const MESSAGE_CHANNELS = ['sms', 'email'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

export const MESSAGE_STATUSES = ['not_sent_test_mode', 'queued', 'sent', 'delivered', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** A phone number or an address as lists show it: enough to tell two apart, not enough to write to. */
export function maskAddress(to: string): string {
  const at = to.indexOf('@');
  if (at > 0) return `${to.slice(0, 1)}***${to.slice(at)}`;
  if (to.length <= 6) return '*'.repeat(to.length);
  return `${to.slice(0, 4)}${'*'.repeat(to.length - 7)}${to.slice(-3)}`;
}

/** A shop order's messages: their text is the order's (buyer, message, amounts), and a receipt is of no card. */
export const ORDER_MESSAGE_KINDS = ['gift_received', 'order_receipt'] as const satisfies readonly MessageKind[];
export const isOrderKind = (kind: MessageKind): kind is (typeof ORDER_MESSAGE_KINDS)[number] => (ORDER_MESSAGE_KINDS as readonly string[]).includes(kind);
