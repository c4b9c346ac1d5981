import { expect, test, type Page } from '@playwright/test';

const baseUrl = () => process.env.E2E_BASE_URL!;

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

interface Shop {
  name: string;
  key: string;
  cardNumber: string;
}

/** A business with a 1.5% + 10 payment fee and one ETB card, seeded through the API. */
async function seedShop(name: string): Promise<Shop> {
  const admin = process.env.E2E_ADMIN_TOKEN!;
  const biz = await call('POST', '/api/admin/businesses', admin, { name });
  expect(biz.status).toBe(201);
  const fees = await call('PUT', `/api/admin/businesses/${biz.body.data.id}/fees`, admin, {
    mode: 'test',
    rules: [{ applies_to: 'payment', percent: '1.5', fixed: 10 }],
  });
  expect(fees.status).toBe(200);
  const key = biz.body.data.api_keys.test;
  const phone = `+2519${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
  const card = await call('POST', '/api/v1/card', key, { phone_number: phone, currency: 'ETB', first_name: 'Abebe', last_name: 'Kebede' });
  expect(card.status).toBe(201);
  return { name, key, cardNumber: card.body.data.card_number };
}

async function startPayment(shop: Shop, amount = 10_000) {
  const res = await call('POST', '/api/v1/card/payments', shop.key, { type: 'hosted', amount, card_number: shop.cardNumber });
  expect(res.status).toBe(201);
  return res.body.data as { link_reference: string; checkout_url: string; service_fee: number };
}

const paymentStatus = async (shop: Shop, ref: string) => (await call('GET', `/api/v1/card/payment/${ref}/status`, shop.key)).body.data.status;
const cardBalance = async (shop: Shop) => (await call('GET', `/api/v1/card/${shop.cardNumber}`, shop.key)).body.data.available_amount;

async function expectSummary(page: Page, shop: Shop) {
  await expect(page.getByTestId('business-name')).toHaveText(shop.name);
  await expect(page.getByTestId('amount')).toHaveText('ETB 100.00');
  await expect(page.getByTestId('service-fee')).toHaveText('ETB 1.60');
  await expect(page.getByTestId('total')).toHaveText('ETB 101.60');
  await expect(page.getByTestId('card-last-four')).toContainText(shop.cardNumber.slice(-4));
  await expect(page.getByText('Test mode', { exact: true })).toBeVisible();
}

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('Pay tops up the card once; the page then shows success and offers nothing to press', async ({ page }, testInfo) => {
  const shop = await seedShop('Kaldi Coffee');
  const payment = await startPayment(shop);
  await page.goto(payment.checkout_url);
  await expectSummary(page, shop);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(scrollWidth).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath('checkout-390px.png'), fullPage: true });

  // Keyboard only: Tab to the Pay button and press Enter.
  const pay = page.getByRole('button', { name: 'Pay ETB 101.60 (test)' });
  for (let i = 0; i < 10 && !(await pay.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(pay).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByRole('status')).toContainText('Payment successful');
  await expect(page.getByRole('button')).toHaveCount(0);
  await expect.poll(() => paymentStatus(shop, payment.link_reference)).toBe('success');
  await expect.poll(() => cardBalance(shop)).toBe(10_000);
  await page.screenshot({ path: testInfo.outputPath('checkout-390px-paid.png'), fullPage: true });

  await page.reload();
  await expect(page.getByRole('status')).toContainText('Payment successful');
  await expect(page.getByRole('button')).toHaveCount(0);
  expect(await cardBalance(shop)).toBe(10_000);
});

for (const [label, outcome] of [
  ['Simulate failed payment (test)', 'Payment failed'],
  ['Cancel payment (test)', 'Payment cancelled'],
] as const) {
  test(`${label} leaves the card untouched and the payment failed`, async ({ page }) => {
    const shop = await seedShop(`Shop ${outcome}`);
    const payment = await startPayment(shop);
    await page.goto(payment.checkout_url);
    await expectSummary(page, shop);
    expect(await paymentStatus(shop, payment.link_reference)).toBe('pending');
    await page.getByRole('button', { name: label }).click();
    await expect(page.getByRole('status')).toContainText(outcome);
    await expect(page.getByRole('button')).toHaveCount(0);
    await expect.poll(() => paymentStatus(shop, payment.link_reference)).toBe('failed');
    expect(await cardBalance(shop)).toBe(0);
  });
}

test('a page left open cannot pay a payment that finished elsewhere', async ({ page }) => {
  const shop = await seedShop('Stale tab shop');
  const payment = await startPayment(shop);
  await page.goto(payment.checkout_url);
  const done = await call('POST', `/api/v1/test-helpers/payments/${payment.link_reference}/complete`, shop.key, { status: 'cancelled' });
  expect(done.status).toBe(200);
  await page.getByRole('button', { name: /^Pay / }).click();
  await expect(page.getByRole('status')).toContainText('Payment cancelled');
  expect(await cardBalance(shop)).toBe(0);
});

test('an unknown reference shows the not-found page', async ({ page }) => {
  const res = await page.goto(`${baseUrl()}/checkout/pay_doesnotexist`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Payment not found' })).toBeVisible();
});
