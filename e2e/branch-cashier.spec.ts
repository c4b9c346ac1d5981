import { expect, test } from '@playwright/test';
import { baseUrl, call, expectAccessible, fundedCard, screenshots, seedBusiness, signInWithForm } from './dashboard-fixtures';

test('the owner invites a cashier to a branch; the cashier joins and redeems there; the owner reconciles the branch', async ({ page, browser }, testInfo) => {
  const biz = await seedBusiness();
  const bole = await call('POST', '/api/v1/locations', biz.keys.test, { name: 'Bole branch' });
  expect(bole.status).toBe(201);
  expect((await call('POST', '/api/v1/locations', biz.keys.test, { name: 'Piassa branch' })).status).toBe(201);
  const card = await fundedCard(biz, 50_000);
  // A redemption with no branch named: in the whole business's figures, never in the branch's.
  expect((await call('POST', `/api/v1/card/${card}/redemptions`, biz.keys.test, { amount: 4_000 })).status).toBe(200);

  await signInWithForm(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/team`);
  const email = `till-${biz.id}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('cashier');
  // A cashier must be tied to one of the branches.
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.locator('#invite-location-error')).toContainText('Choose the branch');
  await page.getByLabel('Branch', { exact: true }).selectOption({ label: 'Bole branch' });
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const link = await page.getByTestId('invite-link').inputValue();
  await expect(page.getByTestId('pending-invitation').filter({ hasText: email })).toContainText('Bole branch');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'team-invite-cashier');

  const cashierContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const cashier = await cashierContext.newPage();
  await cashier.goto(link);
  await expect(cashier.getByTestId('invitation-summary')).toContainText('Bole branch');
  await screenshots(cashier, testInfo, 'invite-cashier');
  await cashier.getByLabel('Choose a password').fill('cashier-own-pass-1');
  await cashier.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(cashier).toHaveURL(/\/till$/);
  await expect(cashier.getByText('At Bole branch')).toBeVisible();
  await cashier.getByLabel('Card number or phone').fill(card);
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('till-balance')).toHaveText('ETB 460.00');
  await cashier.getByLabel('Amount (ETB)').fill('120.50');
  await cashier.keyboard.press('Enter');
  await expect(cashier.getByTestId('receipt-amount')).toHaveText('ETB 120.50');
  await screenshots(cashier, testInfo, 'till-cashier-receipt');
  await cashierContext.close();

  // The audit log says who joined, and where.
  await page.goto(`${baseUrl()}/audit?action=user`);
  await expect(page.getByTestId('audit-row').filter({ hasText: 'Bole branch' }).first()).toBeVisible();

  // The owner reads the branch's reconciliation: the cashier's spend alone.
  await page.goto(`${baseUrl()}/reports/reconciliation`);
  await page.getByLabel('Branch').selectOption({ label: 'Bole branch' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`location=${bole.body.data.id}`));
  await expect(page.getByTestId('recon-branch-note')).toContainText('Bole branch');
  const total = page.getByTestId('recon-total-ETB');
  await expect(total.getByTestId('fig-redemptionsOut')).toHaveText('120.50');
  await expect(total.getByTestId('spends')).toHaveText('1');
  await expect(page.getByTestId('recon-table-ETB').getByTestId('fig-paymentsHosted')).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'reconciliation-branch');
  // No branch: the API's redemption without location_id.
  await page.getByLabel('Branch').selectOption({ label: 'No branch named' });
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByTestId('recon-total-ETB').getByTestId('fig-redemptionsOut')).toHaveText('40.00');
});
