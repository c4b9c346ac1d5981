import { expect, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, randomPhone, seedBusiness, signIn } from './dashboard-fixtures';

/**
 * Every dashboard page, as the owner (who may open them all), with data on it:
 * no serious or critical axe violation, and nothing scrolls sideways at 390 px.
 */
test('every dashboard page passes axe and fits a 390 px screen', async ({ page }) => {
  test.setTimeout(180_000);
  const biz = await seedBusiness(`Every page ${Date.now()}`);
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Meron', last_name: 'Alemu' });
  const cardNumber = card.body.data.card_number as string;
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 50_000 })).status).toBe(200);
  const topup = await call('POST', '/api/v1/transfers', biz.keys.test, {
    amount: 20_000,
    bank_slug: 'link',
    account_number: cardNumber,
    account_name: 'Float',
  });
  const payoutReference = topup.body.data.provider_reference as string;
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, {
    type: 'hosted',
    amount: 1_500,
    card_number: cardNumber,
    merchant_reference: `ORD-${Date.now()}`,
  });
  const paymentReference = payment.body.data.link_reference as string;

  await signIn(page, biz.emails.owner);
  const pages = [
    '/',
    '/cards',
    '/cards/new',
    '/cards/upload',
    '/cards/expiring',
    `/cards/${cardNumber}`,
    '/payouts',
    '/payouts/new',
    '/payouts/upload',
    `/payouts/${payoutReference}`,
    '/payments',
    '/payments/new',
    `/payments/${paymentReference}`,
    '/shop-orders',
    `/search?q=${encodeURIComponent('Meron')}`,
    '/reports',
    '/reports/statement',
    '/reports/liability',
    '/reports/reconciliation',
    '/reports/till',
    '/till',
    '/approvals',
    '/developers',
    '/audit',
    '/messages',
    '/team',
    '/settings',
    '/account',
  ];
  for (const path of pages) {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${baseUrl()}${path}`);
    await expect(page.locator('main'), path).toBeVisible();
    await expect(page.getByText(/could not be loaded/), path).toHaveCount(0);
    await expectAccessible(page);
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${path} scrolls sideways at 390 px`).toBeLessThanOrEqual(1);
    await expectAccessible(page);
  }
});
