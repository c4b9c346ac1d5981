import { expect, test } from '@playwright/test';
import { baseUrl, call, expectAccessible, fundedCard, randomPhone, screenshots, seedBusiness, signIn, type SeededBusiness } from './dashboard-fixtures';

let biz: SeededBusiness;
let source: string;
let destination: string;

test.beforeAll(async () => {
  biz = await seedBusiness(`Limits Shop ${Date.now()}`);
  source = await fundedCard(biz, 500_000);
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Liya', last_name: 'Haile' });
  expect(card.status).toBe(201);
  destination = card.body.data.card_number;
});

test('an owner sets limits in currency units, and a payout over one is refused on its amount, naming the limit', async ({ page }, testInfo) => {
  await signIn(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/`);
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await expect(page.getByRole('heading', { name: 'Settings' })).toBeVisible();
  const etb = page.getByTestId('limits-ETB');
  await etb.getByLabel('Largest single payout (ETB)').fill('abc');
  await etb.getByRole('button', { name: 'Save ETB limits' }).click();
  await expect(page.locator('#limit-ETB-max_payout-error')).toHaveText('Enter an amount like 25, 1,000 or 25.50.');

  await etb.getByLabel('Largest single payout (ETB)').fill('1,000');
  await etb.getByLabel('Payouts per business day (ETB)').fill('2500.50');
  await etb.getByRole('button', { name: 'Save ETB limits' }).click();
  await expect(page.getByTestId('limits-ETB-notice')).toHaveText('Saved the ETB limits for test mode.');
  const stored = await call('GET', `/api/admin/businesses/${biz.id}/limits?mode=test`, process.env.E2E_ADMIN_TOKEN!);
  expect(stored.body.data.limits[0]).toEqual({ currency: 'ETB', max_payout: 100_000, daily_payout: 250_050, max_card_balance: null, spend_code_over: null });
  await page.reload();
  await expect(etb.getByLabel('Largest single payout (ETB)')).toHaveValue('1,000.00');
  await expect(etb.getByLabel('Most a card may hold (ETB)')).toHaveValue('');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'settings-limits');

  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await page.getByLabel('Destination card number').fill(destination);
  await expect(page.getByTestId('recipient-card')).toContainText('Liya H.');
  await page.getByLabel(/^Amount/).fill('1,000.01');
  await page.getByRole('button', { name: 'Send payout' }).click();
  // The limit is checked before the confirmation dialog would open, so no dialog asks about a payout that would be refused.
  await expect(page.locator('#amount-error')).toHaveText('Limit exceeded: This payout exceeds the maximum payout limit of 1,000.00 ETB.');
  await expect(page.getByRole('dialog', { name: 'Send to this card?' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payout-refused-by-limit');
  expect((await call('GET', `/api/v1/card/${source}`, biz.keys.test)).body.data.available_amount).toBe(500_000);
});

test('operators do not see Settings and cannot open it', async ({ page }) => {
  await signIn(page, biz.emails.operator);
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);
  const res = await page.goto(`${baseUrl()}/settings`);
  expect(res?.status()).toBe(403);
});
