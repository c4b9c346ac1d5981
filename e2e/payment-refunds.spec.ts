import { expect, test } from '@playwright/test';
import { formatMoney } from '../components/ui/money';
import { baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

test('finance refunds part of a paid top-up from its page and sees what was refunded; support sees no Refund button', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Refund', last_name: 'Holder' });
  expect(card.status).toBe(201);
  const cardNumber = card.body.data.card_number as string;
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, { type: 'hosted', amount: 10_000, card_number: cardNumber });
  expect(payment.status).toBe(201);
  const ref = payment.body.data.link_reference as string;
  expect((await call('POST', `/api/v1/test-helpers/payments/${ref}/complete`, biz.keys.test, { status: 'success' })).status).toBe(200);

  await signIn(page, biz.emails.finance);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/payments/${ref}`);
  await expect(page.getByTestId('refunded-amount')).toHaveText(formatMoney(0, 'ETB'));
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const amount = page.getByLabel('Amount to refund (ETB)');
  // Prefilled with what is left to refund.
  await expect(amount).toHaveValue('100.00');
  await amount.fill('25.50');
  await page.getByLabel('Reason (optional)').fill('Two items returned');
  await page.getByRole('button', { name: `Refund ${formatMoney(2_550, 'ETB')}` }).click();
  await expect(page.getByTestId('refund-outcome')).toContainText(`${formatMoney(2_550, 'ETB')} refunded`);
  await expect(page.getByTestId('refunded-amount')).toHaveText(formatMoney(2_550, 'ETB'));
  await expect(page.getByTestId('refundable-amount')).toHaveText(formatMoney(7_450, 'ETB'));
  await expect(page.getByTestId('refund-list')).toContainText('Two items returned');
  // The refund's ledger lines are in the payment's trail: the card debited, the checkout refunds clearing credited.
  await expect(page.getByTestId('ledger-trail')).toContainText('Payment refunded');
  await expect(page.getByTestId('ledger-trail')).toContainText('Checkout refunds clearing');

  // More than is left is refused on the amount field, and nothing moves.
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(amount).toHaveValue('74.50');
  await amount.fill('80');
  await page.getByRole('button', { name: `Refund ${formatMoney(8_000, 'ETB')}` }).click();
  await expect(page.locator('#refund-amount-error')).toContainText('At most ETB 74.50 is left to refund of this payment.');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payment-refund');

  const status = await call('GET', `/api/v1/card/payment/${ref}/status`, biz.keys.test);
  expect(status.body.data.refunded_amount).toBe(2_550);
  expect((await call('GET', `/api/v1/card/${cardNumber}`, biz.keys.test)).body.data.available_amount).toBe(7_450);

  await page.context().clearCookies();
  await signIn(page, biz.emails.support);
  const res = await page.goto(`${baseUrl()}/payments/${ref}`);
  expect(res?.status()).toBe(403);
  await page.context().clearCookies();
  await signIn(page, biz.emails.operator);
  await page.goto(`${baseUrl()}/payments/${ref}`);
  await expect(page.getByTestId('refunded-amount')).toHaveText(formatMoney(2_550, 'ETB'));
  await expect(page.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
});
