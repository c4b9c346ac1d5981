import { expect, test } from '@playwright/test';

const baseUrl = () => process.env.E2E_BASE_URL!;

async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** A business that speaks Amharic and the Ethiopian calendar to its customers, with a 1.5% + 10 fee and one ETB card. */
async function amharicShop(name: string) {
  const admin = process.env.E2E_ADMIN_TOKEN!;
  const biz = await call('POST', '/api/admin/businesses', admin, { name });
  expect(biz.status).toBe(201);
  const id = biz.body.data.id;
  expect((await call('PUT', `/api/admin/businesses/${id}/locale`, admin, { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(200);
  const fees = await call('PUT', `/api/admin/businesses/${id}/fees`, admin, { mode: 'test', rules: [{ applies_to: 'payment', percent: '1.5', fixed: 10 }] });
  expect(fees.status).toBe(200);
  const key: string = biz.body.data.api_keys.test;
  const phone = `+2519${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
  const card = await call('POST', '/api/v1/card', key, { phone_number: phone, currency: 'ETB', first_name: 'Abebe', last_name: 'Kebede' });
  expect(card.status).toBe(201);
  const cardNumber: string = card.body.data.card_number;
  const payment = await call('POST', '/api/v1/card/payments', key, { type: 'hosted', amount: 10_000, card_number: cardNumber });
  expect(payment.status).toBe(201);
  return {
    checkoutUrl: payment.body.data.checkout_url as string,
    status: async () => (await call('GET', `/api/v1/card/payment/${payment.body.data.link_reference}/status`, key)).body.data.status,
    balance: async () => (await call('GET', `/api/v1/card/${cardNumber}`, key)).body.data.available_amount,
  };
}

// The business's zone: the page writes the payment's Ethiopian day there.
const ethiopianMonth = () => new Intl.DateTimeFormat('am-u-ca-ethiopic', { timeZone: 'Africa/Addis_Ababa', month: 'long' }).format(new Date());

test('a cardholder pays through the Amharic checkout in the sandbox, at desktop and phone widths', async ({ page }, testInfo) => {
  const shop = await amharicShop('ቡና ቤት');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(shop.checkoutUrl);
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  await expect(page.getByText('የሚሞላው መጠን')).toBeVisible();
  await expect(page.getByTestId('amount')).toHaveText(/^ብር\s100\.00$/);
  await expect(page.getByTestId('total')).toHaveText(/^ብር\s101\.60$/);
  await expect(page.getByTestId('checkout-date')).toContainText(ethiopianMonth());
  await page.screenshot({ path: testInfo.outputPath('amharic-checkout-1280px.png'), fullPage: true });

  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('total')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath('amharic-checkout-390px.png'), fullPage: true });

  await page.getByRole('button', { name: /^ብር\s101\.60 ይክፈሉ \(ሙከራ\)$/ }).click();
  await expect(page.getByRole('status')).toContainText('ክፍያው ተሳክቷል');
  await expect(page.getByRole('button')).toHaveCount(0);
  await expect.poll(shop.status).toBe('success');
  await expect.poll(shop.balance).toBe(10_000);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: testInfo.outputPath('amharic-checkout-390px-paid.png'), fullPage: true });
});

test('the language switch keeps the page in English through a payment, and goes back to Amharic', async ({ page }) => {
  const shop = await amharicShop('Tomoca English');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(shop.checkoutUrl);
  await page.getByTestId('language-switch').getByRole('link', { name: 'English' }).click();
  await expect(page).toHaveURL(/\?lang=en$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('total')).toHaveText(/^ETB\s101\.60$/);

  await page.getByRole('button', { name: 'Cancel payment (test)' }).click();
  await expect(page.getByRole('status')).toContainText('Payment cancelled');
  await expect(page).toHaveURL(/\?lang=en$/);
  await expect.poll(shop.status).toBe('failed');

  await page.getByTestId('language-switch').getByRole('link', { name: 'አማርኛ' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  await expect(page.getByRole('status')).toContainText('ክፍያው ተሰርዟል');
});

test('an unknown link asked for in Amharic says so in Amharic', async ({ page }) => {
  const res = await page.goto(`${baseUrl()}/checkout/pay_doesnotexist?lang=am`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'ክፍያው አልተገኘም' })).toBeVisible();
});
