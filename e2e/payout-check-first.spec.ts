import { expect, test } from '@playwright/test';
import { admin, baseUrl, fundedCard, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

test('a card-to-card payout over the largest payout allowed is refused before the dialog that shows the recipient', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const [source, destination] = [await fundedCard(biz, 100_000), await fundedCard(biz, 100)];
  expect((await admin('PUT', `/api/admin/businesses/${biz.id}/limits`, { mode: 'test', currency: 'ETB', max_payout: 10_000 })).status).toBe(200);
  await signIn(page, biz.emails.operator);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await page.getByLabel('Destination card number').fill(destination);
  await page.getByLabel(/^Amount/).fill('200');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.getByRole('main')).toContainText(`This payout exceeds the maximum payout limit of 100.00 ETB.`);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await screenshots(page, testInfo, 'payout-over-limit-before-confirm');
  // Within the limit, the recipient is shown and confirmed first, as always.
  await page.getByLabel(/^Amount/).fill('50');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.getByRole('dialog', { name: 'Send to this card?' })).toBeVisible();
});
