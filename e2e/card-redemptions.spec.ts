import { expect, test } from '@playwright/test';
import { formatMoney } from '../components/ui/money';
import { baseUrl, call, expectAccessible, fundedCard, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

test('an operator redeems a card at the counter from its page, sees the balance drop and the line in its story; support has no form', async ({
  page,
}, testInfo) => {
  const biz = await seedBusiness();
  const cardNumber = await fundedCard(biz, 10_000);

  await signIn(page, biz.emails.operator);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/cards/${cardNumber}`);
  await expect(page.getByTestId('card-balance')).toHaveText(formatMoney(10_000, 'ETB'));
  const form = page.getByRole('form', { name: 'Redeem' });
  await form.getByLabel('Amount to redeem (ETB)').fill('25.50');
  await form.getByLabel('Receipt or order number (optional)').fill('Till 2, receipt 881');
  await form.getByRole('button', { name: 'Redeem from card' }).click();

  await expect(page.getByTestId('redeem-outcome')).toContainText(`Redeemed ${formatMoney(2_550, 'ETB')}`);
  await expect(page.getByTestId('redeem-outcome')).toContainText(`The card now holds ${formatMoney(7_450, 'ETB')}`);
  await expect(page.getByTestId('card-balance')).toHaveText(formatMoney(7_450, 'ETB'));
  const line = page.getByTestId('timeline-entry').filter({ hasText: 'Redeemed at the business' });
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(biz.emails.operator);
  await screenshots(page, testInfo, 'card-redeemed');

  // More than the card holds is refused on the amount, and nothing moves.
  await form.getByLabel('Amount to redeem (ETB)').fill('80');
  await form.getByRole('button', { name: 'Redeem from card' }).click();
  await expect(page.locator('#redeem-amount-error')).toContainText('The card does not hold this amount.');
  await expect(page.getByTestId('card-balance')).toHaveText(formatMoney(7_450, 'ETB'));
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-redeem');

  expect((await call('GET', `/api/v1/card/${cardNumber}`, biz.keys.test)).body.data.available_amount).toBe(7_450);

  await page.context().clearCookies();
  await signIn(page, biz.emails.support);
  await page.goto(`${baseUrl()}/cards/${cardNumber}`);
  await expect(page.getByTestId('card-balance')).toHaveText(formatMoney(7_450, 'ETB'));
  await expect(page.getByRole('form', { name: 'Redeem' })).toHaveCount(0);
});
