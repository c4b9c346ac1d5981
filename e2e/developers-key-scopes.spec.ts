import { expect, test } from '@playwright/test';
import { baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

test('owner creates a restricted key: scopes chosen on the form, shown on its row, and held to by the API', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/developers`);
  await expect(page.getByRole('heading', { name: 'Developers' })).toBeVisible();

  // Every scope is ticked to begin with; the keys made with the business show all four.
  const scopes = page.getByRole('group', { name: 'What the key may do' });
  for (const scope of ['read', 'cards', 'payments', 'payouts']) await expect(scopes.getByRole('checkbox', { name: new RegExp(`^${scope} `) })).toBeChecked();
  const firstRow = page.getByTestId('api-keys').locator('li').first();
  await expect(firstRow.getByTestId('key-scopes').locator('li')).toHaveText(['read', 'cards', 'payments', 'payouts']);

  // No scope at all is refused on the form, with the reason beside the checkboxes.
  await page.getByLabel('Name of the new key').fill('Checkout server');
  for (const scope of ['read', 'cards', 'payments', 'payouts']) await scopes.getByRole('checkbox', { name: new RegExp(`^${scope} `) }).uncheck();
  await page.getByRole('button', { name: 'Create test API key' }).click();
  await expect(page.locator('#new-key-scopes-error')).toHaveText('Choose at least one scope.');
  await expect(page.getByTestId('new-key')).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'developers-key-scopes-error');

  await scopes.getByRole('checkbox', { name: /^read / }).check();
  await scopes.getByRole('checkbox', { name: /^payments / }).check();
  await page.getByRole('button', { name: 'Create test API key' }).click();
  const key = await page.getByTestId('new-key-value').inputValue();
  expect(key).toMatch(/^sk_test_[0-9A-Za-z]{32}$/);
  const row = page.getByTestId(`key-${key.slice(0, 12)}`);
  await expect(row.getByTestId('key-name')).toHaveText('Checkout server');
  await expect(row.getByTestId('key-scopes').locator('li')).toHaveText(['read', 'payments']);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'developers-key-scopes');

  // The API holds the key to what its row says.
  expect((await call('GET', '/api/v1/card', key)).status).toBe(200);
  const refused = await call('POST', '/api/v1/card', key, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Nope' });
  expect(refused).toMatchObject({ status: 403, body: { status: 'error', message: 'Forbidden', error: 'This API key lacks the cards scope.' } });

  // The audit log says the key was made restricted.
  await page.goto(`${baseUrl()}/audit`);
  await expect(page.getByTestId('audit-row').filter({ hasText: 'Created API key “Checkout server”' })).toContainText('restricted to read, payments.');
});
