import { expect, test } from '@playwright/test';
import pg from 'pg';
import { startLiveStack, type LiveStack } from '../tests/chapa-harness';
import { baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

/**
 * A live bank payout in the dashboard: a second server with CHAPA_* pointing at
 * tools/chapa-fake (same database as the other specs); the fake holds the
 * transfer pending until the spec settles it.
 */

let stack: LiveStack;
let sharedBaseUrl: string | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  stack = await startLiveStack({
    databaseUrl: process.env.E2E_DATABASE_URL!,
    adminToken: process.env.E2E_ADMIN_TOKEN!,
    fakeEnv: { CHAPA_FAKE_TRANSFER_SETTLE_MS: '100' },
    // Each view reads Chapa's listings afresh, so a listing made to fail is read.
    env: { CHAPA_LIST_CACHE_MS: '0' },
  });
  // The fixtures read E2E_BASE_URL: point them at the live server for this file only.
  sharedBaseUrl = process.env.E2E_BASE_URL;
  process.env.E2E_BASE_URL = stack.baseUrl;
});

test.afterAll(async () => {
  process.env.E2E_BASE_URL = sharedBaseUrl;
  await stack?.stop();
});

test('a live bank payout shows pending with its Chapa reference, then success once Chapa settles it', async ({ page }, testInfo) => {
  const biz = await seedBusiness(`Live Payouts ${Date.now()}`);
  const card = await call('POST', '/api/v1/card', biz.keys.live, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Almaz', last_name: 'Bekele' });
  expect(card.status).toBe(201);
  const cardNumber = card.body.data.card_number as string;
  await stack.fund(biz.id, 'ETB', 1_000_000);
  expect(
    (await call('POST', '/api/v1/transfers', biz.keys.live, { amount: 1_000_000, bank_slug: 'link', account_number: cardNumber, account_name: 'Float' }))
      .status,
  ).toBe(200);
  await expect.poll(async () => (await call('GET', `/api/v1/card/${cardNumber}`, biz.keys.live)).body.data.available_amount).toBe(1_000_000);

  await stack.fake.control('/__fake/transfers/switches', { settle: 'manual' });
  const res = await call('POST', '/api/v1/card/payouts', biz.keys.live, {
    card_number: cardNumber,
    amount: 250_000,
    bank_slug: 'cbe',
    account_number: '1000123456789',
    account_name: 'Almaz Bekele',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const reference = res.body.data.provider_reference as string;

  await signIn(page, biz.emails.finance);
  await page.goto(`${baseUrl()}/`);
  await page.getByTestId('mode-live').click();
  await expect(page.getByTestId('test-mode-banner')).toHaveCount(0);
  await page.goto(`${baseUrl()}/payouts/${reference}`);
  await expect(page.getByTestId('payout-status')).toContainText(/pending/i);
  await expect(page.getByTestId('provider-state')).toHaveText('Chapa has the transfer');
  await expect(page.getByTestId('provider-reference')).toHaveText(/^TRF/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'chapa-payout-pending');

  // Still unsettled a day after it was queued: the panel asks a person (nothing refunds it by itself).
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    await db.query(`UPDATE rail_requests SET created_at = created_at - interval '25 hours' WHERE reference = $1`, [reference]);
    await page.reload();
    await expect(page.getByTestId('provider-state')).toContainText('needs a person');
    await expect(page.getByTestId('payout-status')).toContainText(/pending/i);
    await screenshots(page, testInfo, 'chapa-payout-review');
  } finally {
    await db.query(`UPDATE rail_requests SET created_at = created_at + interval '25 hours' WHERE reference = $1`, [reference]);
    await db.end();
  }

  await stack.fake.control('/__fake/transfers/settle', { reference, status: 'success' });
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('payout-status')).toContainText(/success/i, { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByTestId('provider-state')).toHaveText('Settled by Chapa');
  await expect(page.getByTestId('provider-verify')).toContainText('success');
  await screenshots(page, testInfo, 'chapa-payout-success');

  // A live payment's page shows Chapa's verify too.
  const pay = await call('POST', '/api/v1/card/payments', biz.keys.live, { type: 'hosted', amount: 5_000, card_number: cardNumber });
  expect(pay.status, JSON.stringify(pay.body)).toBeLessThan(300);
  const paymentRef = pay.body.data.link_reference as string;
  const state = await stack.fake.state();
  const tx = Object.values(state.stores.transactions ?? {}).find((x: any) => x.txRef === paymentRef) as { token: string } | undefined;
  expect(tx).toBeTruthy();
  await fetch(`${stack.fake.url}/checkout/payment/${tx!.token}/pay`, { method: 'POST', redirect: 'manual' });
  await expect(async () => {
    await page.goto(`${baseUrl()}/payments/${paymentRef}`);
    await expect(page.getByTestId('payment-verify')).toContainText('verified', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await screenshots(page, testInfo, 'chapa-payment-verify');

  // The daily reconciliation's provider column: today's transfer on both sides, no difference; and Chapa's balances (or why not).
  await page.goto(`${baseUrl()}/reports/reconciliation`);
  const provider = page.getByTestId('provider-recon');
  await expect(provider).toContainText('Chapa against our ledger');
  await expect(provider.locator('tbody tr')).toHaveCount(1);
  await expect(provider.locator('tbody tr')).toContainText('2,500.00');
  await expect(provider.locator('tbody tr')).toContainText('None');
  await expect(page.getByTestId('provider-balances')).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'chapa-reconciliation');

  // One of Chapa's listings unreadable: the page names that one, and the other side is still compared.
  await stack.fake.switches({ failures: { transactions_list: { mode: '503', times: 1 } } });
  await page.reload();
  await expect(page.getByTestId('provider-unread-payments')).toContainText(
    'Chapa’s list of transactions (our payments) could not be read just now (Chapa answered 503)',
  );
  await expect(page.getByTestId('provider-unread-transfers')).toHaveCount(0);
  await expect(provider.locator('tbody tr')).toContainText('Not read');
  await expect(provider.locator('tbody tr')).toContainText('2,500.00');
  await page.setViewportSize({ width: 1280, height: 900 });
  await screenshots(page, testInfo, 'chapa-reconciliation-one-listing-unread');

  // In Amharic, the provider's panel and its side of the reconciliation speak it too; Chapa keeps its name, its own words stay its own.
  await page.goto(`${baseUrl()}/account`);
  await page.getByLabel('Language', { exact: true }).selectOption('am');
  await page.getByRole('button', { name: 'Save language and calendar' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  await page.goto(`${baseUrl()}/payouts/${reference}`);
  await expect(page.getByTestId('provider-state')).toHaveText('Chapa አጠናቆታል');
  await expect(page.getByText('የChapa መለያ ቁጥር', { exact: true })).toBeVisible();
  await screenshots(page, testInfo, 'chapa-payout-amharic');
  await page.goto(`${baseUrl()}/reports/reconciliation`);
  await expect(provider.getByRole('heading', { level: 2 })).toHaveText('Chapa ከመዝገባችን ጋር ሲነጻጸር');
  await expect(provider.getByRole('columnheader', { name: 'የወጣ (Chapa)' })).toBeVisible();
  await expect(provider.locator('tbody tr')).toContainText('ምንም');
  await expect(page.getByTestId('provider-balances').getByRole('heading', { level: 2 })).toHaveText('የChapa ቀሪ ሂሳቦች');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'chapa-reconciliation-amharic');
});
