import { expect, test } from '@playwright/test';
import { baseUrl, expectAccessible, screenshots } from './dashboard-fixtures';

test('the API reference lists every operation with curl and TypeScript examples and its errors', async ({ page }, testInfo) => {
  await page.goto(`${baseUrl()}/docs`);
  await expect(page.getByRole('heading', { level: 1, name: 'API reference' })).toBeVisible();
  const create = page.locator('#create-card');
  await expect(create.getByRole('heading', { name: 'Create a gift card' })).toBeVisible();
  await expect(create.getByText('/api/v1/card', { exact: true })).toBeVisible();
  await expect(create.getByLabel('curl')).toContainText('Idempotency-Key');
  await expect(create.getByLabel('TypeScript')).toContainText('client.createCard(');
  await expect(create.getByRole('cell', { name: 'Gift card already exists' })).toBeVisible();
  await expect(page.locator('#create-payout').getByRole('cell', { name: 'Insufficient balance' })).toBeVisible();
  // Each operation says which API key scope it needs, and the refusal a key without it gets.
  await expect(page.locator('#create-payout').getByText('key scope payouts')).toBeVisible();
  await expect(page.locator('#create-payout').getByRole('cell', { name: 'This API key lacks the payouts scope.' })).toBeVisible();
  await expect(page.locator('#list-cards').getByText('key scope read')).toBeVisible();
  await page.locator('#create-payout').screenshot({ path: testInfo.outputPath('docs-create-payout.png') });
  for (const id of ['list-events', 'create-transfer', 'list-banks', 'settle-payout', 'complete-payment', 'create-business']) {
    await expect(page.locator(`#${id}`)).toHaveCount(1);
  }
  await expectAccessible(page);
  await screenshots(page, testInfo, 'docs');

  // The document the page is built from is served beside it, without a key.
  const doc = await (await fetch(`${baseUrl()}/api/v1/openapi.json`)).json();
  expect(doc.openapi).toBe('3.1.0');
});

test('the webhooks page explains payloads, every signature, retries, rotation and catching up', async ({ page }, testInfo) => {
  await page.goto(`${baseUrl()}/docs`);
  await page.getByRole('navigation', { name: 'Documentation' }).getByRole('link', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/docs\/webhooks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
  for (const header of ['service-signature', 'x-service-signature', 'webhook-signature', 'service-signature-next', 'x-service-signature-next']) {
    await expect(page.getByRole('cell', { name: header, exact: true })).toBeVisible();
  }
  await expect(page.getByLabel('Node: Standard Webhooks webhook-signature')).toContainText("createHmac('sha256', key)");
  const retries = page.getByRole('list', { name: 'Waits before each retry' }).getByRole('listitem');
  await expect(retries).toHaveText(['retry 1: 5 s', 'retry 2: 5 min', 'retry 3: 30 min', 'retry 4: 2 h', 'retry 5: 5 h', 'retry 6: 10 h', 'retry 7: 10 h']);
  await expect(page.getByRole('heading', { name: 'Catching up with GET /api/v1/events' })).toBeVisible();
  await expect(page.getByText('undelivered=true').first()).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'docs-webhooks');
});
