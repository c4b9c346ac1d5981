import { expect, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, fundedCard, PASSWORD, screenshots, seedBusiness, signIn, signInWithForm } from './dashboard-fixtures';

test('a cashier at 390 px redeems, holds and captures with the keyboard alone; the owner reads the branch report', async ({ page, browser }, testInfo) => {
  const biz = await seedBusiness();
  const branch = await call('POST', '/api/v1/locations', biz.keys.test, { name: 'Bole branch' });
  expect(branch.status).toBe(201);
  const cashierEmail = `cashier-${biz.id}-${Date.now()}@example.com`;
  const made = await admin('POST', `/api/admin/businesses/${biz.id}/users`, {
    email: cashierEmail,
    password: PASSWORD,
    role: 'cashier',
    location_id: branch.body.data.id,
  });
  expect(made.status).toBe(201);
  const card = await fundedCard(biz, 50_000);

  await page.setViewportSize({ width: 390, height: 844 });
  // Signing in lands a cashier on the till, its field focused for the scanner.
  await signInWithForm(page, cashierEmail);
  await expect(page).toHaveURL(/\/till$/);
  await expect(page.getByText('At Bole branch')).toBeVisible();
  const find = page.getByLabel('Card number or phone');
  await expect(find).toBeFocused();

  // What a scanner types: the digits and Enter.
  await page.keyboard.type(card);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('till-balance')).toHaveText('ETB 500.00');
  await expect(page.getByLabel('Amount (ETB)')).toBeFocused();
  await page.keyboard.type('120.50');
  await page.keyboard.press('Enter');
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('Redemption');
  await expect(page.getByTestId('receipt-amount')).toHaveText('ETB 120.50');
  await expect(receipt).toContainText('ETB 379.50');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'till-receipt');
  // Next customer is focused: Enter goes back to the field.
  await expect(page.getByRole('button', { name: 'Next customer' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(find).toBeFocused();

  // A hold: the amount, then Tab to Hold.
  await page.keyboard.type(card);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('till-balance')).toHaveText('ETB 379.50');
  // The balance is drawn a moment before the amount field takes the focus: type once it has.
  await expect(page.getByLabel('Amount (ETB)')).toBeFocused();
  await page.keyboard.type('200');
  await page.keyboard.press('Tab'); // Redeem
  await page.keyboard.press('Tab'); // Hold
  await expect(page.getByRole('button', { name: 'Hold', exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(receipt).toContainText('Hold placed');
  await page.keyboard.press('Enter');

  // Capture the hold's part: the amount typed, then Tab past Redeem and Hold to the hold's Capture.
  await page.keyboard.type(card);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('till-balance')).toHaveText('ETB 179.50');
  await expect(page.getByTestId('till-hold')).toHaveCount(1);
  await screenshots(page, testInfo, 'till-card');
  await expect(page.getByLabel('Amount (ETB)')).toBeFocused();
  await page.keyboard.type('150');
  for (let i = 0; i < 3; i++) await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Capture' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(receipt).toContainText('Hold captured');
  await expect(page.getByTestId('receipt-amount')).toHaveText('ETB 150.00');
  const after = await call('GET', `/api/v1/card/${card}`, biz.keys.test);
  expect(after.body.data).toMatchObject({ available_amount: 50_000 - 12_050 - 15_000, held_amount: 0 });

  // The cashier's own day, on the till page.
  await page.reload();
  const mine = page.getByTestId('till-report');
  await expect(mine).toContainText(cashierEmail);
  await expect(mine).toContainText('ETB 270.50');
  // Anything else is refused, with a way back to the till.
  await page.goto(`${baseUrl()}/cards`);
  await expect(page.getByText('Your role does not give you access to this page.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the till' })).toBeVisible();

  // The owner reads the branch's report.
  const owner = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signIn(owner, biz.emails.owner);
  await owner.goto(`${baseUrl()}/reports/till`);
  await owner.getByLabel('Branch').selectOption({ label: 'Bole branch' });
  await owner.getByRole('button', { name: 'Show' }).click();
  await expect(owner).toHaveURL(/location=\d+/);
  const report = owner.getByTestId('till-report');
  await expect(report.locator('tbody tr')).toHaveCount(1);
  await expect(report).toContainText(cashierEmail);
  await expect(report).toContainText('Bole branch');
  await expect(report).toContainText('ETB 270.50');
  await expectAccessible(owner);
  await screenshots(owner, testInfo, 'till-branch-report');

  // The business statement, read for the branch: what its till brought in.
  await owner.goto(`${baseUrl()}/reports/statement?location=${branch.body.data.id}`);
  await expect(owner.getByLabel('Branch')).toHaveValue(String(branch.body.data.id));
  await expect(owner.locator('main')).toContainText('ETB 270.50');
  await expect(owner.locator('tbody tr')).toHaveCount(2);
  await expectAccessible(owner);
  await screenshots(owner, testInfo, 'statement-branch');
});
