import { describe, expect, inject, it } from 'vitest';
import * as account from '../../lib/actions/account-actions';
import { runActionAs } from '../../lib/actions/define-action';
import { adminClient, apiClient, createTestBusiness } from '../helpers';
import { PASSWORD, signInOverHttp, userOf } from '../owners-auth-helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

/** A page fetched as a browser asking for a language, with a session cookie when there is one. */
async function page(path: string, acceptLanguage: string, cookie?: string) {
  const res = await fetch(`${inject('baseUrl')}${path}`, {
    redirect: 'manual',
    headers: { 'accept-language': acceptLanguage, ...(cookie && { cookie }) },
  });
  const text = await res.text();
  return { status: res.status, text, lang: /<html lang="([^"]+)"/.exec(text)?.[1] };
}

describe('PUT /api/admin/businesses/{id}/locale', () => {
  it('sets the customers’ language and calendar and answers with the business’s settings', async () => {
    const biz = await createTestBusiness();
    const before = await adminClient().get(`/api/admin/businesses/${biz.id}/locale`);
    expect(before.status).toBe(200);
    expect(before.body.data).toEqual({ id: biz.id, time_zone: 'Africa/Addis_Ababa', country: 'ET', customer_language: 'en', calendar: 'gregorian' });

    const res = await adminClient().put(`/api/admin/businesses/${biz.id}/locale`, { customer_language: 'am', calendar: 'ethiopic' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', message: 'Business settings updated successfully' });
    expect(res.body.data).toEqual({ id: biz.id, time_zone: 'Africa/Addis_Ababa', country: 'ET', customer_language: 'am', calendar: 'ethiopic' });
    expect((await adminClient().get(`/api/admin/businesses/${biz.id}/locale`)).body.data).toEqual(res.body.data);
  });

  it('refuses values outside am|en and ethiopic|gregorian, unknown businesses, and callers without the token', async () => {
    const biz = await createTestBusiness();
    const bad = await adminClient().put(`/api/admin/businesses/${biz.id}/locale`, { customer_language: 'fr', calendar: 'julian' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toEqual({ customer_language: 'customer_language must be am or en.', calendar: 'calendar must be ethiopic or gregorian.' });
    expect((await adminClient().get(`/api/admin/businesses/${biz.id}/locale`)).body.data.customer_language).toBe('en');
    expect((await adminClient().put('/api/admin/businesses/999999999/locale', { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(404);
    expect((await apiClient(biz.keys.test).put(`/api/admin/businesses/${biz.id}/locale`, { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(401);
    expect((await adminClient().post(`/api/admin/businesses/${biz.id}/locale`, {})).status).toBe(405);
  });
});

describe('the language a person reads', () => {
  it('follows the browser’s Accept-Language on the sign-in page, English when it names neither', async () => {
    const am = await page('/login', 'am-ET,am;q=0.9,en;q=0.5');
    expect(am.lang).toBe('am');
    const fr = await page('/login', 'fr-FR,de;q=0.8');
    expect(fr.lang).toBe('en');
    const en = await page('/login', 'en-GB,am;q=0.3');
    expect(en.lang).toBe('en');
  });

  it('follows the person’s stored choice over their browser, and the browser again once they choose “as my browser”', async () => {
    const biz = await createTestBusiness();
    const owner = await userOf(biz.id, 'owner');
    const { cookie } = await signInOverHttp(owner.email, PASSWORD);
    expect(cookie).not.toBeNull();
    const english = await page('/account', 'en', cookie!);
    expect(english.status).toBe(200);
    expect(english.lang).toBe('en');
    expect(english.text).toContain('Your account');

    const saved = await runActionAs(account.updatePreferences, owner, { language: 'am', calendar: 'ethiopic' });
    expect(saved).toEqual({ ok: true, data: { language: 'am', calendar: 'ethiopic' } });
    const amharic = await page('/account', 'en-US,en;q=0.9', cookie!);
    expect(amharic.lang).toBe('am');
    expect(amharic.text).toContain('የእኔ መለያ');
    expect(amharic.text).toContain('ቋንቋ እና የቀን አቆጣጠር');

    expect(await runActionAs(account.updatePreferences, owner, { language: 'browser', calendar: 'gregorian' })).toEqual({
      ok: true,
      data: { language: null, calendar: 'gregorian' },
    });
    expect((await page('/account', 'fr', cookie!)).lang).toBe('en');
    expect((await page('/account', 'am', cookie!)).lang).toBe('am');
  });

  it('refuses a language or calendar it does not offer', async () => {
    const biz = await createTestBusiness();
    const owner = await userOf(biz.id, 'finance');
    const res = await runActionAs(account.updatePreferences, owner, { language: 'fr', calendar: 'ethiopic' });
    expect(res).toMatchObject({ ok: false, code: 'validation_error', fieldErrors: { language: 'Choose a language.' } });
  });
});
