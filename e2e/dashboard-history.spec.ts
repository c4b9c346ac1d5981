import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  admin,
  baseUrl,
  call,
  expectAccessible,
  openListening,
  randomPhone,
  screenshots,
  seedBusiness,
  signIn,
  type SeededBusiness,
} from './dashboard-fixtures';

async function newCard(key: string) {
  const res = await call('POST', '/api/v1/card', key, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Hanna', last_name: 'Tesfaye' });
  expect(res.status).toBe(201);
  return res.body.data.card_number as string;
}

/** Funds a card the way a business does: back office deposit, ledger top-up, settled by the test helper. */
async function fundCard(biz: SeededBusiness, cardNumber: string, amount: number) {
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount })).status).toBe(200);
  const transfer = await call('POST', '/api/v1/transfers', biz.keys.test, { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Float' });
  expect(transfer.status).toBe(200);
  const settled = await call('POST', `/api/v1/test-helpers/payouts/${transfer.body.data.provider_reference}/settle`, biz.keys.test, { status: 'success' });
  expect(settled.body.data.status).toBe('success');
  return transfer.body.data.provider_reference as string;
}

const rowStatus = (page: Page, reference: string) => page.getByTestId(`payout-${reference}`).getByTestId('status');

test('an operator sends a card-to-card payout with a live fee preview and finds it in history', async ({ page }, testInfo) => {
  // Eight pages, each checked with axe and shot at two widths: past 60 s on the shared 2-core machine (it timed out on its last screenshot).
  test.setTimeout(120_000);
  const biz = await seedBusiness();
  const [source, destination] = [await newCard(biz.keys.test), await newCard(biz.keys.test)];
  await fundCard(biz, source, 50_000);
  expect(
    (await admin('PUT', `/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [{ applies_to: 'card_to_card', percent: '2', fixed: 0 }] })).status,
  ).toBe(200);

  await signIn(page, biz.emails.operator);
  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await expect(page.getByLabel('Source card number')).toHaveValue(source);
  await page.getByLabel('Destination card number').fill(destination);
  await page.getByLabel(/^Amount/).fill('100');
  // 2% of 100.00 is 2.00: the sender pays it on top by default.
  await expect(page.getByTestId('preview-fee')).toHaveText(/2\.00/);
  await expect(page.getByTestId('preview-debit')).toHaveText(/102\.00/);
  await expect(page.getByTestId('preview-credit')).toHaveText(/100\.00/);
  await page.getByLabel(/Recipient pays/).check();
  await expect(page.getByTestId('preview-debit')).toHaveText(/100\.00/);
  await expect(page.getByTestId('preview-credit')).toHaveText(/98\.00/);
  await page.getByLabel(/Sender pays/).check();
  await expect(page.getByTestId('preview-debit')).toHaveText(/102\.00/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payout-new');

  // A double click sends one payout: a card-to-card payout is confirmed first (the recipient shown), and the form's request id is sent once.
  await page.getByRole('button', { name: 'Send payout' }).dblclick();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^Send ETB/ })
    .dblclick();
  await expect(page).toHaveURL(/\/payouts\/c2c_/);
  const reference = decodeURIComponent(page.url().split('/payouts/')[1]);
  await expect(page.getByTestId('payout-status')).toHaveText('success');
  await expect(page.getByTestId('payout-amount')).toHaveText(/100\.00/);
  await expect(page.getByTestId('ledger-trail')).toContainText(`Card ${source}`);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payout-detail');

  await page.goto(`${baseUrl()}/payouts`);
  await expect(rowStatus(page, reference)).toHaveText('success');
  await expect(page.getByRole('link', { name: 'Send payout' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payouts');

  const listed = await call('GET', '/api/v1/card/payouts?limit=100', biz.keys.test);
  const c2c = listed.body.data.items.filter((i: { payout_type: string }) => i.payout_type === 'card_to_card');
  expect(c2c).toHaveLength(1);
  expect(c2c[0]).toMatchObject({ initiator_reference: reference, amount: 10_000, service_fee: 200 });
  const card = await call('GET', `/api/v1/card/${source}`, biz.keys.test);
  expect(card.body.data.available_amount).toBe(50_000 - 10_200);

  // Filters narrow the list and stay in the URL.
  await page.getByLabel('Type').selectOption('topup');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/type=topup/);
  await expect(page.getByTestId(`payout-${reference}`)).toHaveCount(0);
  await expect(page.getByTestId('payouts-table').locator('tbody tr')).toHaveCount(1);

  // Payments: a hosted link to copy, its detail, and the list.
  await page.goto(`${baseUrl()}/payments/new?card=${source}`);
  await expect(page.getByLabel('Card number')).toHaveValue(source);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payment-new');
  await page.getByLabel('Amount').fill('25.50');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  await expect(page.getByLabel('Checkout link for the customer')).toHaveValue(/\/checkout\/pay_/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payment-created');
  await page.getByRole('link', { name: /View payment/ }).click();
  await expect(page.getByTestId('payment-status')).toHaveText('pending');
  await expect(page.getByTestId('payment-amount')).toHaveText(/25\.50/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payment-detail');
  await page.goto(`${baseUrl()}/payments`);
  await expect(page.getByTestId('payments-table').locator('tbody tr')).toHaveCount(1);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payments');
});

test('finance exports the filtered payouts as CSV matching the API list, and has no send-payout control', async ({ page }) => {
  const biz = await seedBusiness();
  const [source, destination] = [await newCard(biz.keys.test), await newCard(biz.keys.test)];
  await fundCard(biz, source, 80_000);
  for (const amount of [1_000, 2_500]) {
    expect((await call('POST', '/api/v1/card/payouts', biz.keys.test, { card_number: source, destination_card_number: destination, amount })).status).toBe(200);
  }
  const bank = await call('POST', '/api/v1/card/payouts', biz.keys.test, {
    card_number: source,
    amount: 3_000,
    bank_slug: 'cbe',
    account_number: '1000123456123',
    account_name: 'Abebe Kebede',
  });
  expect(bank.body.data.status).toBe('PENDING');

  await signIn(page, biz.emails.finance);
  await page.goto(`${baseUrl()}/payouts`);
  await expect(page.getByTestId('payouts-table').locator('tbody tr')).toHaveCount(4);
  await expect(page.getByRole('link', { name: 'Send payout' })).toHaveCount(0);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  const [header, ...lines] = fs
    .readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  const columns = header.split(',');
  const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [columns[i], v])));

  const api = await call('GET', '/api/v1/card/payouts?limit=100', biz.keys.test);
  const items = api.body.data.items as Record<string, string | number>[];
  // The API lists card payouts only; the dashboard and its export also show the ledger top-up that funded the card.
  expect(items).toHaveLength(3);
  expect(rows).toHaveLength(4);
  const cardPayoutRows = rows.filter((r) => items.some((i) => (i.initiator_reference ?? i.provider_reference) === r.reference));
  // Amounts twice: minor units for machines, currency units ("10.00") for people; no fee rule here, so net is the amount.
  const units = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
  expect(cardPayoutRows.map((r) => [r.reference, Number(r.amount_minor), Number(r.fee_minor), r.amount, r.fee, r.net, r.status, r.payout_type])).toEqual(
    items.map((i) => [
      i.initiator_reference ?? i.provider_reference,
      i.amount,
      i.service_fee,
      units(Number(i.amount)),
      units(Number(i.service_fee)),
      units(Number(i.amount)),
      i.status,
      i.payout_type,
    ]),
  );
  // Times are the business's wall clock, and the header says whose.
  expect(columns).toContain('created_at (Africa/Addis_Ababa)');
  expect(rows[0]['created_at (Africa/Addis_Ababa)']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

  // The export honours the filters in the URL, and answers as a CSV attachment.
  const filtered = await page.request.get(`${baseUrl()}/payouts/export?type=card_to_card`);
  expect(filtered.headers()['content-type']).toMatch(/^text\/csv/);
  expect(filtered.headers()['content-disposition']).toMatch(/^attachment; filename="payouts-test-/);
  expect((await filtered.text()).trim().split('\r\n')).toHaveLength(1 + 2);

  // Finance cannot reach the form or the action's page.
  await page.goto(`${baseUrl()}/payouts/new`);
  await expect(page.getByText('Your role does not give you access to this page.')).toBeVisible();
  await page.goto(`${baseUrl()}/payments/new`);
  await expect(page.getByText('Your role does not give you access to this page.')).toBeVisible();
  await page.goto(`${baseUrl()}/payments`);
  await expect(page.getByRole('link', { name: 'New payment' })).toHaveCount(0);
});

test('support is refused the CSV export', async ({ page }) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.support);
  const res = await page.request.get(`${baseUrl()}/payouts/export`);
  expect(res.status()).toBe(403);
  await page.goto(`${baseUrl()}/payouts`);
  await expect(page.getByText('Your role does not give you access to this page.')).toBeVisible();
});

test('a pending bank payout turns to success on open pages without a reload', async ({ browser }, testInfo) => {
  const biz = await seedBusiness();
  const source = await newCard(biz.keys.test);
  await fundCard(biz, source, 20_000);
  const bank = await call('POST', '/api/v1/card/payouts', biz.keys.test, {
    card_number: source,
    amount: 5_000,
    bank_slug: 'telebirr',
    account_number: '0911223344',
    account_name: 'Sara Alemu',
  });
  const reference = bank.body.data.provider_reference as string;

  const context = await browser.newContext();
  const list = await context.newPage();
  await signIn(list, biz.emails.operator);
  const detail = await context.newPage();
  const opened = async (page: Page, path: string) => {
    await openListening(page, path);
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  };
  await opened(list, '/payouts');
  await opened(detail, `/payouts/${reference}`);
  await expect(rowStatus(list, reference)).toHaveText('pending');
  await expect(detail.getByTestId('payout-status')).toHaveText('pending');
  await expectAccessible(detail);
  await screenshots(detail, testInfo, 'payout-detail-pending');

  const settled = await call('POST', `/api/v1/test-helpers/payouts/${reference}/settle`, biz.keys.test, { status: 'success' });
  expect(settled.body.data.status).toBe('success');
  const started = Date.now();
  // Both pages change in place (checked below: the same documents); how soon is printed, not asserted.
  await expect(rowStatus(list, reference)).toHaveText('success', { timeout: 30_000 });
  await expect(detail.getByTestId('payout-status')).toHaveText('success', { timeout: 30_000 });
  const note = `both pages showed success ${Date.now() - started} ms after the settle answered`;
  testInfo.annotations.push({ type: 'live refresh', description: note });
  console.log(`live refresh: ${note}`);
  // Still the same documents: the pages refreshed in place.
  for (const page of [list, detail]) expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await context.close();
});
