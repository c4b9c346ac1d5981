import { describe, expect, inject, it } from 'vitest';
import { formatEthiopicDate } from '../lib/calendar/ethiopic-text';
import { adminClient, createCard, createTestBusiness, type TestBusiness } from './helpers';

/** The hosted checkout as a browser fetches it, asking for one language. */
async function checkoutPage(path: string, acceptLanguage: string) {
  const res = await fetch(`${inject('baseUrl')}${path}`, { headers: { 'accept-language': acceptLanguage } });
  const text = await res.text();
  return { status: res.status, text, lang: /<html lang="([^"]+)"/.exec(text)?.[1] };
}

async function businessSpeaking(customer_language: 'am' | 'en', calendar: 'ethiopic' | 'gregorian') {
  const biz = await createTestBusiness(`Buna ${customer_language} ${calendar}`);
  const res = await adminClient().put(`/api/admin/businesses/${biz.id}/locale`, { customer_language, calendar });
  expect(res.status).toBe(200);
  return biz;
}

async function hostedPath(biz: TestBusiness): Promise<string> {
  const card = await createCard(biz.test);
  const res = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 123_450, card_number: card.card_number });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return new URL(res.body.data.checkout_url).pathname;
}

/** The Ethiopian day around a request (a page drawn just after midnight in Addis Ababa may show either). */
function ethiopianDaysAround(before: Date, locale: 'am' | 'en') {
  return new Set([formatEthiopicDate(before, 'Africa/Addis_Ababa', locale), formatEthiopicDate(new Date(), 'Africa/Addis_Ababa', locale)]);
}

describe('the hosted checkout speaks the business’s customer language', () => {
  it('serves Amharic to every browser when the business chose Amharic, with its amounts in ብር and an Ethiopian date', async () => {
    const started = new Date();
    const path = await hostedPath(await businessSpeaking('am', 'ethiopic'));
    const page = await checkoutPage(path, 'en-US,en;q=0.9');
    expect(page.status).toBe(200);
    expect(page.lang).toBe('am');
    expect(page.text).toContain('የሚሞላው መጠን');
    expect(page.text).toContain('የሙከራ ክፍያ');
    expect(page.text).not.toContain('Top-up amount');
    expect(page.text).toMatch(/ብር(\s|&nbsp;|\u00a0)1,234\.50/);
    const day = [...ethiopianDaysAround(started, 'am')].find((d) => page.text.includes(d));
    expect(day, `one of ${[...ethiopianDaysAround(started, 'am')]} on the page`).toBeDefined();
    // The switch keeps the page and asks for English.
    expect(page.text).toContain(`href="${path}?lang=en"`);
  });

  it('lets ?lang=en override the business’s Amharic, keeping its Ethiopian calendar', async () => {
    const started = new Date();
    const path = await hostedPath(await businessSpeaking('am', 'ethiopic'));
    const page = await checkoutPage(`${path}?lang=en`, 'am-ET,am;q=0.9');
    expect(page.lang).toBe('en');
    expect(page.text).toContain('Top-up amount');
    expect(page.text).not.toContain('የሚሞላው መጠን');
    expect(page.text).toMatch(/ETB(\s|&nbsp;|\u00a0)1,234\.50/);
    expect([...ethiopianDaysAround(started, 'en')].some((d) => page.text.includes(d))).toBe(true);
    expect(page.text).toContain(`href="${path}?lang=am"`);
  });

  it('serves English with Gregorian dates when the business chose English, even to an Amharic browser, and ?lang=am overrides it', async () => {
    const started = new Date();
    const path = await hostedPath(await businessSpeaking('en', 'gregorian'));
    const en = await checkoutPage(path, 'am-ET,am;q=0.9');
    expect(en.lang).toBe('en');
    expect(en.text).toContain('Top-up amount');
    expect([...ethiopianDaysAround(started, 'en')].some((d) => en.text.includes(d))).toBe(false);
    const gregorian = new Intl.DateTimeFormat('en-GB', { timeZone: 'Africa/Addis_Ababa', day: 'numeric', month: 'short', year: 'numeric' });
    expect(en.text).toContain(gregorian.format(new Date()));

    const am = await checkoutPage(`${path}?lang=am`, 'en-US');
    expect(am.lang).toBe('am');
    expect(am.text).toContain('የሚሞላው መጠን');
  });

  it('ignores a ?lang it does not speak, and answers an unknown link in the language asked for', async () => {
    const path = await hostedPath(await businessSpeaking('am', 'gregorian'));
    expect((await checkoutPage(`${path}?lang=fr`, 'en-US')).lang).toBe('am');
    const missing = await checkoutPage('/checkout/no-such-link?lang=am', 'en-US');
    expect(missing.status).toBe(404);
    // Next.js sends a not-found thrown by a page as an error shell that the browser draws from the payload, in the request's language.
    expect(missing.text).toContain('ክፍያው አልተገኘም');
    expect(missing.text).not.toContain('Payment not found');
  });
});
