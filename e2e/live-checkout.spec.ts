import { expect, test, type Page } from '@playwright/test';
import { startLiveStack, type LiveStack } from '../tests/chapa-harness';
import { PASSWORD, randomPhone, screenshots, signIn } from './dashboard-fixtures';

/**
 * Live mode on one machine: a second app server whose CHAPA_* point at
 * tools/chapa-fake (the shared e2e server keeps live rails off). The customer
 * goes from our checkout page to the fake's hosted page and back; the owner
 * watches the card's balance rise on an open card page.
 */

let stack: LiveStack;

test.beforeAll(async () => {
  stack = await startLiveStack({ databaseUrl: process.env.E2E_DATABASE_URL!, adminToken: process.env.E2E_ADMIN_TOKEN! });
});
test.afterAll(async () => {
  await stack?.stop();
});

async function api(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

async function signInLive(page: Page, email: string) {
  await signIn(page, email, PASSWORD, stack.baseUrl);
  await page.goto(`${stack.baseUrl}/`);
  await page.getByTestId('mode-live').click();
  await expect(page.getByTestId('mode-live')).toHaveAttribute('aria-pressed', 'true');
}

test('a live top-up through our checkout page and Chapa’s hosted page raises the balance on an open card page', async ({ page, browser }, testInfo) => {
  const biz = await stack.createBusiness(`Live shop ${Date.now()}`);
  const email = `owner-${biz.id}-${Date.now()}@example.com`;
  expect((await api('POST', `/api/admin/businesses/${biz.id}/users`, stack.adminToken, { email, password: PASSWORD, role: 'owner' })).status).toBe(201);
  const card = await api('POST', '/api/v1/card', biz.keys.live, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Hana', last_name: 'Tesfaye' });
  expect(card.status).toBe(201);
  const cardNumber = card.body.data.card_number as string;

  // The owner keeps the card open; its live stream must listen before the payment finishes.
  await signInLive(page, email);
  await page.goto(`${stack.baseUrl}/cards/${cardNumber}`);
  await expect(page.locator('html[data-live="listening"]')).toHaveCount(1, { timeout: 10_000 });
  await expect(page.getByTestId('card-balance')).toHaveText(/0\.00/);

  const payment = await api('POST', '/api/v1/card/payments', biz.keys.live, { type: 'hosted', amount: 25_000, card_number: cardNumber });
  expect(payment.status).toBe(201);
  const checkoutUrl = payment.body.data.checkout_url as string;
  expect(checkoutUrl).toBe(`${stack.baseUrl}/checkout/${payment.body.data.link_reference}`);

  const customer = await (await browser.newContext()).newPage();
  await customer.goto(checkoutUrl);
  const payLink = customer.getByTestId('pay-with-chapa');
  await expect(payLink).toHaveText(/Pay ETB\s?250\.00 with Chapa|Pay .*250\.00 with Chapa/);
  await screenshots(customer, testInfo, 'live-checkout-ours');
  await payLink.click();
  await expect(customer).toHaveURL(new RegExp(`^${stack.fake.url}/checkout/payment/`));
  await expect(customer.getByRole('heading', { name: /Pay ETB 250\.00/ })).toBeVisible();
  await screenshots(customer, testInfo, 'live-checkout-chapa');
  await customer.getByRole('button', { name: 'Pay now' }).click();

  // Back on our page, which asked verify on the way in.
  await expect(customer).toHaveURL(`${checkoutUrl}?from=chapa`);
  await expect(customer.getByTestId('payment-outcome')).toHaveAttribute('data-status', 'success');
  await screenshots(customer, testInfo, 'live-checkout-back');

  // No reload on the owner's page: the balance rose by itself.
  await expect(page.getByTestId('card-balance')).toHaveText(/250\.00/, { timeout: 15_000 });
  await screenshots(page, testInfo, 'live-card-page');
  const status = await api('GET', `/api/v1/card/payment/${payment.body.data.link_reference}/status`, biz.keys.live);
  expect(status.body.data).toMatchObject({ status: 'success', amount: 25_000 });
});

test('a live wallet charge that needs the customer’s code says so on its page, and is credited once the code is sent', async ({ page }, testInfo) => {
  await stack.fake.switches({ chargeAuthType: 'otp' });
  const biz = await stack.createBusiness(`Live wallet shop ${Date.now()}`);
  const email = `owner-${biz.id}-${Date.now()}@example.com`;
  expect((await api('POST', `/api/admin/businesses/${biz.id}/users`, stack.adminToken, { email, password: PASSWORD, role: 'owner' })).status).toBe(201);
  const card = await api('POST', '/api/v1/card', biz.keys.live, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Abel' });
  const charge = await api('POST', '/api/v1/card/payments', biz.keys.live, {
    type: 'direct-charge',
    amount: 12_000,
    card_number: card.body.data.card_number,
    phone_number: '+251900123456',
    payment_method: 'telebirr',
  });
  expect(charge.status).toBe(201);
  const ref = charge.body.data.link_reference as string;

  await signInLive(page, email);
  await page.goto(`${stack.baseUrl}/payments/${ref}`);
  await expect(page.getByTestId('next-action')).toContainText('one-time code');
  await expect(page.getByTestId('payment-status')).toContainText(/pending/i);
  await screenshots(page, testInfo, 'live-charge-next-action');

  const sent = await api('POST', `/api/v1/card/payment/${ref}/authorize`, biz.keys.live, { otp: '12345' });
  expect(sent.body.data.status).toBe('success');
  await page.reload();
  await expect(page.getByTestId('payment-status')).toContainText(/success|paid/i);
  await expect(page.getByTestId('next-action')).toHaveCount(0);
  await screenshots(page, testInfo, 'live-charge-paid');
  await stack.fake.reset();
});

test('back from Chapa before verify agrees, the checkout page says it is checking and shows the outcome by itself', async ({ page }, testInfo) => {
  await stack.fake.reset();
  const biz = await stack.createBusiness(`Live return ${Date.now()}`);
  const card = await api('POST', '/api/v1/card', biz.keys.live, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Sara' });
  const payment = await api('POST', '/api/v1/card/payments', biz.keys.live, { type: 'hosted', amount: 4_000, card_number: card.body.data.card_number });
  const ref = payment.body.data.link_reference as string;
  // Chapa's verify still says pending when the customer comes back.
  await stack.fake.switches({ verifyOverride: { [ref]: { status: 'pending' } } });
  await page.goto(payment.body.data.checkout_url);
  await page.getByTestId('pay-with-chapa').click();
  await page.getByRole('button', { name: 'Pay now' }).click();
  await expect(page).toHaveURL(`${payment.body.data.checkout_url}?from=chapa`);
  await expect(page.getByTestId('awaiting-verify')).toHaveText(/Checking your payment with Chapa/);
  await screenshots(page, testInfo, 'live-checkout-awaiting');
  await stack.fake.switches({ verifyOverride: { [ref]: {} } });
  await expect(page.getByTestId('payment-outcome')).toHaveAttribute('data-status', 'success', { timeout: 30_000 });
  await expect(page.getByTestId('awaiting-verify')).toHaveCount(0);
});
