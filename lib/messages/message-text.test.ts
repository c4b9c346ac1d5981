import { describe, expect, it } from 'vitest';
import { LOCALES } from '../i18n/locale';
import { MESSAGE_KINDS, isOrderKind } from './message-kinds';
import { GIFT_SMS_PARTS, messageSubject, messageText, smsPartsAllowed } from './message-text';
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
  order: {
    buyer: 'Abebe Kebede Tesfaye Wolde Giorgis Mariam',
    recipient: 'Hanna Tesfaye Bekele Alemayehu Desta',
    message: 'Happy birthday! '.repeat(20),
    total: 123_456_789,
    reference: `ord_${'A1b2C3d4E5x1'.repeat(2)}`,
  },
  code: '904713',
});

describe('cardholder message templates', () => {
  for (const locale of LOCALES) {
    for (const calendar of ['gregorian', 'ethiopic'] as const) {
      it.each(MESSAGE_KINDS)(`%s fits its SMS parts (two; a gift three) in ${locale}, ${calendar}`, (kind) => {
        const text = messageText(kind, facts(locale, calendar));
        const parts = smsParts(text);
        expect(parts.parts, `${text} (${parts.units} ${parts.encoding})`).toBeLessThanOrEqual(smsPartsAllowed(kind));
        // A shop order's messages name no card number: the link opens the card, and the buyer learns nothing of it.
        if (isOrderKind(kind)) expect(text).not.toContain('1138');
        else expect(text).toContain('1138');
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

  describe('a shop gift', () => {
    const gift = (message: string | null, locale: 'en' | 'am' = 'en') => {
      const f = facts(locale, 'gregorian');
      return messageText('gift_received', { ...f, order: { ...f.order, message } });
    };

    it('carries the buyer’s name, the amount, the link and a short message whole', () => {
      expect(gift('Enjoy your coffee!')).toBe(
        `Addis Ababa Fresh Marke.: Abebe Kebede Tesfaye Wo. sent you a gift card of ETB 1,234,567.89. "Enjoy your coffee!" See it and spend it here: ${facts('en', 'gregorian').link}`,
      );
      expect(gift(null)).not.toContain('"');
    });

    it('cuts a long message to the longest start that fits, with "...", on one line, in both languages', () => {
      const long = `${'word '.repeat(60)}\nend`;
      for (const locale of ['en', 'am'] as const) {
        const text = gift(long, locale);
        expect(smsParts(text).parts).toBeLessThanOrEqual(GIFT_SMS_PARTS);
        expect(text).toMatch(/ "(word )+word\.\.\."/);
        expect(text).not.toContain(' end');
        expect(text).not.toContain('\n');
        // One more word would not have fitted.
        const kept = /"([^"]*)\.\.\."/.exec(text)![1];
        expect(smsParts(text.replace(`${kept}...`, `${kept} word...`)).parts).toBeGreaterThan(GIFT_SMS_PARTS);
      }
    });

    it('keeps the message whole by email, and a receipt names the order, never the card', () => {
      const f = facts('en', 'gregorian');
      const long = 'x'.repeat(600);
      expect(messageText('gift_received', { ...f, order: { ...f.order, message: long } }, 'email')).toContain(long);
      const receipt = messageText('order_receipt', f);
      expect(receipt).toContain(f.order.reference);
      expect(receipt).toContain('ETB 1,234,567.89');
      expect(messageSubject(f, 'order_receipt')).toBe("Addis Ababa Fresh Marke.: your gift card order's receipt");
    });
  });
});
