import am from '../../messages/am.json';
import en from '../../messages/en.json';
import type { CalendarChoice, Locale } from '../i18n/locale';
import { formatDay } from '../i18n/date-text';
import { formatMoney } from '../money-text';
import { isOrderKind, type MessageChannel, type MessageKind } from './message-kinds';
import { smsParts } from './sms-parts';

const CATALOGUES: Record<Locale, Record<string, unknown>> = { en, am };

/** A business name longer than this is cut in a message: every template must fit two SMS parts (sms-parts.ts). */
const BUSINESS_NAME_IN_MESSAGE = 24;

/**
 * The catalogue's CardholderMessages translator for a language: `t(key, values)` fills `{name}` arguments (the
 * templates use no other ICU syntax, and no apostrophes). tests/rules/i18n-catalogue.test.ts reads its calls.
 */
function cardholderTranslator(o: { locale: Locale; namespace: 'CardholderMessages' }) {
  const messages = CATALOGUES[o.locale][o.namespace] as Record<string, unknown>;
  return (key: string, values: Record<string, string>): string => {
    const template = key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], messages);
    if (typeof template !== 'string') throw new Error(`CardholderMessages.${key} is missing from messages/${o.locale}.json`);
    return template.replace(/\{(\w+)\}/g, (_, name: string) => {
      if (!(name in values)) throw new Error(`CardholderMessages.${key} needs ${name}`);
      return values[name];
    });
  };
}

export interface MessageFacts {
  business: string;
  locale: Locale;
  calendar: CalendarChoice;
  timeZone: string;
  currency: string;
  /** The card's last four digits: never more of its number. */
  last4: string;
  amount?: number;
  balance?: number;
  link?: string;
  expiresAt?: Date | null;
  /** A shop order's: who bought it, for whom, what they wrote, what they paid in all (amount and fee), its reference. */
  order?: { buyer: string; recipient: string; message: string | null; total: number; reference: string };
  /** A spend code (spend_code), or its mask for the stored text. */
  code?: string;
}

/** Intl writes a no-break space between a currency and its amount: it would make an English SMS UCS-2. */
const plainSpaces = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

const cut = (name: string, max = BUSINESS_NAME_IN_MESSAGE) => (name.length > max ? `${name.slice(0, max - 1).trimEnd()}.` : name);

function values(f: MessageFacts): Record<string, string> {
  return {
    business: cut(f.business.trim()),
    buyer: cut(f.order?.buyer.trim() ?? ''),
    // Shorter than the others: an Amharic receipt holds two amounts and the order's reference in two parts.
    recipient: cut(f.order?.recipient.trim() ?? '', 16),
    total: plainSpaces(formatMoney(f.order?.total ?? 0, f.currency, f.locale)),
    order: f.order?.reference ?? '',
    message: '',
    last4: f.last4,
    amount: plainSpaces(formatMoney(Math.abs(f.amount ?? 0), f.currency, f.locale)),
    balance: plainSpaces(formatMoney(f.balance ?? 0, f.currency, f.locale)),
    link: f.link ?? '',
    code: f.code ?? '',
    date: f.expiresAt ? plainSpaces(formatDay(f.expiresAt, { locale: f.locale, calendar: f.calendar, timeZone: f.timeZone })) : '',
  };
}

/**
 * SMS parts a gift may take: it stands for the card_issued and money_added messages it replaces (two parts each at
 * most), and the buyer's words are the point of it. Every other kind fits two.
 */
export const GIFT_SMS_PARTS = 3;
const SMS_PARTS = 2;

/** The buyer's words in an SMS: on one line, and quoted; cut (with "...") to the longest start that keeps the text within its parts. */
function withGiftMessage(render: (message: string) => string, message: string | null, channel: MessageChannel): string {
  const words = channel === 'sms' ? (message ?? '').replace(/\s+/g, ' ').trim() : (message ?? '').trim();
  if (!words) return render('');
  const whole = render(` "${words}"`);
  if (channel !== 'sms' || smsParts(whole).parts <= GIFT_SMS_PARTS) return whole;
  const chars = Array.from(words);
  let [lo, hi] = [0, chars.length - 1];
  // The longest start that fits: the text only grows with it.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (smsParts(render(` "${chars.slice(0, mid).join('').trimEnd()}..."`)).parts <= GIFT_SMS_PARTS) lo = mid;
    else hi = mid - 1;
  }
  // At a word's end when one ends near the cut: a word cut in half reads as a typo.
  const start = chars.slice(0, lo).join('');
  const space = chars[lo] !== undefined && /\S/.test(chars[lo]) ? start.lastIndexOf(' ') : -1;
  const kept = (space > 0 && start.length - space <= 20 ? start.slice(0, space) : start).trimEnd();
  return kept ? render(` "${kept}..."`) : render('');
}

/**
 * The text of a message, in the business's customer language. A gift's SMS cuts the buyer's message to fit (the
 * card page shows it whole); an email carries it whole.
 */
export function messageText(kind: MessageKind, f: MessageFacts, channel: MessageChannel = 'sms'): string {
  const t = cardholderTranslator({ locale: f.locale, namespace: 'CardholderMessages' });
  const v = values(f);
  if (kind === 'gift_received') return withGiftMessage((message) => t('sms.gift_received', { ...v, message }), f.order?.message ?? null, channel);
  return t(`sms.${kind}`, v);
}

/** The most SMS parts a kind's text may take (message-text.test.ts holds every template to it). */
export const smsPartsAllowed = (kind: MessageKind) => (kind === 'gift_received' ? GIFT_SMS_PARTS : SMS_PARTS);

/** An email's subject line, in the same language: a card's, or for a shop order's messages the order's. */
export function messageSubject(f: MessageFacts, kind?: MessageKind): string {
  const t = cardholderTranslator({ locale: f.locale, namespace: 'CardholderMessages' });
  if (kind && isOrderKind(kind)) return t(`orderSubject.${kind}`, values(f));
  return t('emailSubject', values(f));
}

/** Settings' preview of a shop order's messages: a buyer, a recipient and a message in the customers' language. */
export function sampleOrder(locale: Locale): { buyer: string; recipient: string; message: string } {
  const t = cardholderTranslator({ locale, namespace: 'CardholderMessages' });
  return { buyer: t('sample.buyer', {}), recipient: t('sample.recipient', {}), message: t('sample.message', {}) };
}
