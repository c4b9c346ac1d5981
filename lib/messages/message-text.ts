import am from '../../messages/am.json';
import en from '../../messages/en.json';
import type { CalendarChoice, Locale } from '../i18n/locale';
import { formatDay } from '../i18n/date-text';
import { formatMoney } from '../money-text';
import type { MessageKind } from './message-kinds';

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
  /** A spend code (spend_code), or its mask for the stored text. */
  code?: string;
}

/** Intl writes a no-break space between a currency and its amount: it would make an English SMS UCS-2. */
const plainSpaces = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

const cut = (name: string) => (name.length > BUSINESS_NAME_IN_MESSAGE ? `${name.slice(0, BUSINESS_NAME_IN_MESSAGE - 1).trimEnd()}.` : name);

function values(f: MessageFacts): Record<string, string> {
  return {
    business: cut(f.business.trim()),
    last4: f.last4,
    amount: plainSpaces(formatMoney(Math.abs(f.amount ?? 0), f.currency, f.locale)),
    balance: plainSpaces(formatMoney(f.balance ?? 0, f.currency, f.locale)),
    link: f.link ?? '',
    code: f.code ?? '',
    date: f.expiresAt ? plainSpaces(formatDay(f.expiresAt, { locale: f.locale, calendar: f.calendar, timeZone: f.timeZone })) : '',
  };
}

/** The text of a message, in the business's customer language. */
export function messageText(kind: MessageKind, f: MessageFacts): string {
  const t = cardholderTranslator({ locale: f.locale, namespace: 'CardholderMessages' });
  return t(`sms.${kind}`, values(f));
}

/** An email's subject line, in the same language. */
export function messageSubject(f: MessageFacts): string {
  const t = cardholderTranslator({ locale: f.locale, namespace: 'CardholderMessages' });
  return t('emailSubject', values(f));
}
