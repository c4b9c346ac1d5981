import { expect, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, fundedCard, PASSWORD, screenshots, seedBusiness, signIn, signInWithForm } from './dashboard-fixtures';

test('over the owner’s threshold the till asks for the cardholder’s code: wrong, then right, keyboard only at 390 px', async ({ page, browser }, testInfo) => {
  const biz = await seedBusiness();
  const card = await fundedCard(biz, 500_000);

  // The owner sets the threshold on Settings, in currency units.
  const owner = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await signIn(owner, biz.emails.owner);
  await owner.goto(`${baseUrl()}/settings`);
  const etb = owner.getByTestId('limits-ETB');
  await etb.getByLabel("Cardholder's code over (ETB)").fill('1,000');
  await etb.getByRole('button', { name: 'Save ETB limits' }).click();
  await expect(owner.getByTestId('limits-ETB-notice')).toHaveText('Saved the ETB limits for test mode.');
  const stored = await admin('GET', `/api/admin/businesses/${biz.id}/limits?mode=test`);
  expect(stored.body.data.limits[0]).toMatchObject({ currency: 'ETB', spend_code_over: 100_000 });
  await screenshots(owner, testInfo, 'settings-spend-code');
  await etb.screenshot({ path: testInfo.outputPath('settings-spend-code-etb.png') });

  const cashierEmail = `cashier-${biz.id}-${Date.now()}@example.com`;
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/users`, { email: cashierEmail, password: PASSWORD, role: 'cashier' })).status).toBe(201);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInWithForm(page, cashierEmail);
  await expect(page).toHaveURL(/\/till$/);
  await page.keyboard.type(card);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('till-balance')).toHaveText('ETB 5,000.00');
  // The balance is drawn a moment before the amount field takes the focus: type once it has.
  await expect(page.getByLabel('Amount (ETB)')).toBeFocused();
  await page.keyboard.type('2500');
  await page.keyboard.press('Enter');

  // Nothing moved yet: the till asks for the code, its field focused.
  const form = page.getByTestId('spend-code');
  await expect(form).toContainText("ETB 2,500.00 needs the 6-digit code just sent by SMS to the card's phone.");
  const code = page.getByLabel("Code from the cardholder's phone");
  await expect(code).toBeFocused();
  expect((await call('GET', `/api/v1/card/${card}`, biz.keys.test)).body.data.available_amount).toBe(500_000);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'till-spend-code');

  // A wrong code: said with the tries left, the field cleared and focused again.
  await page.keyboard.type('123456');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('spend-code-error')).toContainText('The code is wrong; 2 tries are left.');
  await expect(code).toHaveValue('');
  await expect(code).toBeFocused();
  await screenshots(page, testInfo, 'till-spend-code-wrong');
  await form.screenshot({ path: testInfo.outputPath('till-spend-code-wrong-form.png') });

  // Test mode's code is always 000000: the redemption goes through and the receipt follows.
  await page.keyboard.type('000000');
  await page.keyboard.press('Enter');
  const receipt = page.getByTestId('receipt');
  await expect(receipt).toContainText('Redemption');
  await expect(page.getByTestId('receipt-amount')).toHaveText('ETB 2,500.00');
  await expect(receipt).toContainText('ETB 2,500.00');
  expect((await call('GET', `/api/v1/card/${card}`, biz.keys.test)).body.data.available_amount).toBe(250_000);

  // Escape leaves a waiting code and goes back to the amount.
  await expect(page.getByRole('button', { name: 'Next customer' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.type(card);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('till-balance')).toHaveText('ETB 2,500.00');
  await expect(page.getByLabel('Amount (ETB)')).toBeFocused();
  await page.keyboard.type('1500');
  await page.keyboard.press('Enter');
  await expect(code).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(form).toHaveCount(0);
  await expect(page.getByLabel('Amount (ETB)')).toBeVisible();

  // The code message is listed masked on the card's page.
  await owner.goto(`${baseUrl()}/cards/${card}`);
  await expect
    .poll(async () => {
      await owner.reload();
      return owner.locator('main').textContent();
    })
    .toContain('is the code to spend ETB 2,500.00');
  await expect(owner.locator('main')).toContainText('******');
  await expect(owner.locator('main')).not.toContainText('000000 is the code');

  // An owner redeeming from the card's page gets the same question, in the redeem form's place.
  const redeem = owner.getByRole('form', { name: 'Redeem' });
  await redeem.getByLabel('Amount to redeem (ETB)').fill('1,200');
  await redeem.getByRole('button', { name: 'Redeem from card' }).click();
  await expect(owner.getByTestId('spend-code')).toContainText('ETB 1,200.00 needs the 6-digit code');
  await expect(owner.getByLabel("Code from the cardholder's phone")).toBeFocused();
  await owner.keyboard.type('000000');
  await owner.keyboard.press('Enter');
  await expect(owner.getByTestId('redeem-outcome')).toContainText('Redeemed ETB 1,200.00');
  await expect(owner.getByTestId('redeem-outcome')).toContainText('The card now holds ETB 1,300.00');
  await expectAccessible(owner);
});
