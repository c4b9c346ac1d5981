import { expect, test } from '@playwright/test';
import { formatMoney } from '../components/ui/money';
import { baseUrl, fundedCard, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

// 100,000 ETB and more asks for a yes in a dialog; the server's refusal must come first, never after a yes.
test('a large redemption over the card’s balance, or a large top-up over the business balance, is refused before any confirmation dialog', async ({
  page,
}, testInfo) => {
  const biz = await seedBusiness();
  const cardNumber = await fundedCard(biz, 10_000);
  await signIn(page, biz.emails.operator);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/cards/${cardNumber}`);

  const redeem = page.getByRole('form', { name: 'Redeem' });
  await redeem.getByLabel('Amount to redeem (ETB)').fill('150000');
  await redeem.getByRole('button', { name: 'Redeem from card' }).click();
  await expect(page.locator('#redeem-amount-error')).toContainText('The card does not hold this amount.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByTestId('card-balance')).toHaveText(formatMoney(10_000, 'ETB'));

  const topUp = page.getByRole('form', { name: 'Top up' });
  await topUp.getByText('Business balance', { exact: true }).click();
  await topUp.getByLabel('Amount (ETB)').fill('150000');
  await topUp.getByRole('button', { name: 'Top up from business balance' }).click();
  await expect(topUp).toContainText('Your business account does not hold enough ETB for this transfer; add funds first.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await screenshots(page, testInfo, 'refused-before-confirm');

  // One the server would take still asks first.
  await redeem.getByLabel('Amount to redeem (ETB)').fill('50');
  await redeem.getByRole('button', { name: 'Redeem from card' }).click();
  await expect(page.getByTestId('redeem-outcome')).toContainText(`Redeemed ${formatMoney(5_000, 'ETB')}`);
});
