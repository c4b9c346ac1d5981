import { expect, test } from '@playwright/test';
import { formatMoney } from '../components/ui/money';
import { baseUrl, call, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

test('a reversed date range says it is reversed, not only that nothing matches', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.finance);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/payouts?from=2026-03-10&to=2026-03-01`);
  const empty = page.getByRole('main');
  await expect(empty).toContainText('No payouts match these dates: the range is reversed');
  await expect(empty).toContainText('The first day (2026-03-10) is after the last (2026-03-01).');
  await screenshots(page, testInfo, 'payouts-reversed-range');
  // In order, the usual words.
  await page.goto(`${baseUrl()}/payouts?from=2026-03-01&to=2026-03-10`);
  await expect(page.getByRole('main')).toContainText('No payouts match these filters');
});

test('a refund of a cancelled card’s payment says the business balance was debited, not the card', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Gone', last_name: 'Card' });
  expect(card.status).toBe(201);
  const cardNumber = card.body.data.card_number as string;
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, { type: 'hosted', amount: 4_000, card_number: cardNumber });
  const ref = payment.body.data.link_reference as string;
  expect((await call('POST', `/api/v1/test-helpers/payments/${ref}/complete`, biz.keys.test, { status: 'success' })).status).toBe(200);
  expect((await call('DELETE', `/api/v1/card/${cardNumber}`, biz.keys.test)).status).toBe(200);

  await signIn(page, biz.emails.finance);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/payments/${ref}`);
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByLabel('Amount to refund (ETB)').fill('10');
  await page.getByRole('button', { name: `Refund ${formatMoney(1_000, 'ETB')}` }).click();
  const outcome = page.getByTestId('refund-outcome');
  await expect(outcome).toContainText(`${formatMoney(1_000, 'ETB')} refunded`);
  await expect(outcome).toContainText('The business balance was debited (the card had been cancelled) and the payer repaid.');
  await expect(outcome).not.toContainText('The card was debited');
  await screenshots(page, testInfo, 'refund-cancelled-card');
});
