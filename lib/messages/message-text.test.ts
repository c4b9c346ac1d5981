import { describe, expect, it } from 'vitest';
import { LOCALES } from '../i18n/locale';
import { MESSAGE_KINDS } from './message-kinds';
import { messageSubject, messageText } from './message-text';
import { smsParts } from './sms-parts';

// Long-ish values: a long business name, seven-figure amounts, a link on a real-looking host with its 43-character token.
const facts = (locale: 'en' | 'am', calendar: 'gregorian' | 'ethiopic') => ({
  business: 'Addis Ababa Fresh Market Supermarket and Bakery',
  locale,
  calendar,
  timeZone: 'Africa/Addis_Ababa',
  currency: 'ETB',
  last4: '1138',
  amount: 123_456_789,
  balance: 987_654_321,
  link: `https://gift.example.com.et/c/${'A1b2C3d4E5'.repeat(4)}xyz`,
  expiresAt: new Date('2026-09-10T20:59:59.999Z'),
  code: '904713',
});

describe('cardholder message templates', () => {
  for (const locale of LOCALES) {
    for (const calendar of ['gregorian', 'ethiopic'] as const) {
      it.each(MESSAGE_KINDS)(`%s fits two SMS parts in ${locale}, ${calendar}`, (kind) => {
        const text = messageText(kind, facts(locale, calendar));
        const parts = smsParts(text);
        expect(parts.parts, `${text} (${parts.units} ${parts.encoding})`).toBeLessThanOrEqual(2);
        expect(text).toContain('1138');
        expect(text).not.toMatch(/\{|\}/);
        // English stays GSM-7 (one part holds 160 characters, not 70); Amharic is Ethiopic, so UCS-2.
        expect(parts.encoding).toBe(locale === 'en' ? 'gsm7' : 'ucs2');
      });
    }
  }

  it('write the amount, the balance and the date as the business reads them', () => {
    expect(messageText('money_added', facts('en', 'gregorian'))).toBe(
      'Addis Ababa Fresh Marke.: ETB 1,234,567.89 added to your gift card ending 1138. Balance now ETB 9,876,543.21.',
    );
    expect(messageText('money_spent', facts('am', 'ethiopic'))).toBe(
      'Addis Ababa Fresh Marke.፦ ከስጦታ ካርድዎ (…1138) ብር 1,234,567.89 ወጪ ሆኗል። ቀሪ ሂሳብ ብር 9,876,543.21።',
    );
    expect(messageText('expiry_7_days', facts('am', 'ethiopic'))).toContain('በ5 ጳጉሜን 2018 ያበቃል');
    expect(messageText('expiry_30_days', facts('en', 'gregorian'))).toContain('expires on 10 Sept 2026');
    expect(messageText('spend_code', facts('en', 'gregorian'))).toBe(
      'Addis Ababa Fresh Marke.: 904713 is the code to spend ETB 1,234,567.89 from your gift card ending 1138. Give it only to the cashier. It works for 5 minutes.',
    );
    expect(messageSubject(facts('am', 'gregorian'))).toBe('Addis Ababa Fresh Marke.፦ የስጦታ ካርድዎ (…1138)');
  });
});
