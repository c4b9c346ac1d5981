import { expect, type Page, test, type TestInfo } from '@playwright/test';
import { newCardLink } from '../lib/cards/card-links';
import { createDb } from '../lib/db/client';
import { admin, baseUrl, call, expectAccessible, fundedCard, randomPhone, seedBusiness, signIn, type SeededBusiness } from './dashboard-fixtures';

let db: ReturnType<typeof createDb> | undefined;
function connection() {
  db ??= createDb(process.env.E2E_DATABASE_URL!, 2);
  return db;
}
const database = () => connection().db;
const pool = () => connection().pool;
test.afterAll(async () => db?.pool.end());

/** The card's page link, as the share endpoint will make it: the path only, on the server under test. */
async function cardLink(biz: SeededBusiness, cardNumber: string): Promise<string> {
  const { rows } = await pool().query('SELECT id FROM cards WHERE card_number = $1', [cardNumber]);
  const link = await newCardLink(database(), { businessId: biz.id, mode: 'test', cardId: Number(rows[0].id) });
  return `${baseUrl()}/c/${link.token}`;
}

async function balance(biz: SeededBusiness, cardNumber: string): Promise<number> {
  return (await call('GET', `/api/v1/card/${cardNumber}`, biz.keys.test)).body.data.available_amount;
}

async function noSidewaysScroll(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(1);
}

async function shot(page: Page, testInfo: TestInfo, name: string) {
  await page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: true });
}

test('a cardholder opens their card on a phone, adds money through the sandbox checkout and sees the balance rise', async ({ page }, testInfo) => {
  const biz = await seedBusiness('Kaldi’s Coffee');
  const cardNumber = await fundedCard(biz, 25_000);
  expect((await call('POST', `/api/v1/card/${cardNumber}/redemptions`, biz.keys.test, { amount: 4_550 })).status).toBe(200);
  const url = await cardLink(biz, cardNumber);
  const foreign: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(baseUrl()) && !r.url().startsWith('data:')) foreign.push(r.url());
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url);
  await expect(page.getByTestId('business-name')).toHaveText('Kaldi’s Coffee');
  await expect(page.getByTestId('test-mode-banner')).toBeVisible();
  await expect(page.getByTestId('card-balance')).toHaveText(/^ETB\s204\.50$/);
  await expect(page.getByTestId('card-number')).toHaveText(cardNumber.replace(/(\d{4})(?=\d)/g, '$1 '));
  const qr = page.getByTestId('card-qr');
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const history = page.getByTestId('card-history').getByRole('listitem');
  await expect(history).toHaveCount(2);
  await expect(history.first()).toContainText('Spent at Kaldi’s Coffee');
  await expect(history.first()).toContainText(/−ETB\s45\.50/);
  await expect(history.nth(1)).toContainText('Money added');
  await noSidewaysScroll(page);
  await expectAccessible(page);
  await shot(page, testInfo, 'card-page-390px');

  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByTestId('card-balance')).toBeVisible();
  await shot(page, testInfo, 'card-page-1280px');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('Amount (ETB)').fill('abc');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByTestId('add-money-error')).toContainText('Enter an amount');
  await page.getByLabel('Amount (ETB)').fill('150');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page).toHaveURL(/\/checkout\/pay_/);
  await expect(page.getByTestId('total')).toHaveText(/^ETB\s150\.00$/);
  await shot(page, testInfo, 'card-page-checkout-390px');
  await page.getByRole('button', { name: 'Pay ETB 150.00 (test)' }).click();
  await expect(page.getByRole('status')).toContainText('Payment successful');
  await page.getByTestId('back-to-card').click();
  await expect(page).toHaveURL(url);
  await expect(page.getByTestId('card-balance')).toHaveText(/^ETB\s354\.50$/);
  await expect(history.first()).toContainText('Money added');
  await expect(history.first()).toContainText(/\+ETB\s150\.00/);
  expect(await balance(biz, cardNumber)).toBe(35_450);
  await noSidewaysScroll(page);
  await shot(page, testInfo, 'card-page-390px-after');
  expect(foreign).toEqual([]);
});

test('the card page in Amharic with the Ethiopian calendar, at 390 and 1280 px, and Add money in Amharic', async ({ page }, testInfo) => {
  const biz = await seedBusiness('ቶሞካ ቡና');
  expect((await admin('PUT', `/api/admin/businesses/${biz.id}/locale`, { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(200);
  const cardNumber = await fundedCard(biz, 10_000);
  const url = await cardLink(biz, cardNumber);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(url);
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  await expect(page.getByText('ቀሪ ሂሳብ', { exact: true })).toBeVisible();
  await expect(page.getByTestId('card-balance')).toHaveText(/^ብር\s100\.00$/);
  const month = new Intl.DateTimeFormat('am-u-ca-ethiopic', { timeZone: 'Africa/Addis_Ababa', month: 'long' }).format(new Date());
  await expect(page.getByTestId('card-history').getByRole('listitem').first()).toContainText(month);
  await noSidewaysScroll(page);
  await expectAccessible(page);
  await shot(page, testInfo, 'card-page-am-390px');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, testInfo, 'card-page-am-1280px');

  await page.getByLabel('መጠን (ETB)').fill('20');
  await page.getByRole('button', { name: 'ወደ ክፍያ ይቀጥሉ' }).click();
  await expect(page).toHaveURL(/\/checkout\/pay_/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  await page.getByRole('button', { name: /^ብር\s20\.00 ይክፈሉ \(ሙከራ\)$/ }).click();
  // Paid before going back: the card's balance is read once, when its page loads.
  await expect(page.getByRole('status')).toContainText('ክፍያው ተሳክቷል');
  await page.getByTestId('back-to-card').click();
  await expect(page.getByTestId('card-balance')).toHaveText(/^ብር\s120\.00$/);

  await page.getByTestId('language-switch').getByRole('link', { name: 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page.getByTestId('card-balance')).toHaveText(/^ETB\s120\.00$/);
});

test('support sends a card to a corrected number from the dashboard; the old link stops opening it', async ({ page }, testInfo) => {
  const biz = await seedBusiness('Corrections');
  const cardNumber = await fundedCard(biz, 5_000);
  const url = await cardLink(biz, cardNumber);
  const taken = randomPhone();
  expect((await call('POST', '/api/v1/card', biz.keys.test, { phone_number: taken, currency: 'ETB', first_name: 'Other' })).status).toBe(201);
  await signIn(page, biz.emails.support);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/cards/${cardNumber}`);
  await page.getByRole('button', { name: 'Send to another number…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expectAccessible(page);
  // A number that has a card here already: refused, nothing moves.
  await dialog.getByLabel('Corrected phone number').fill(`0${taken.slice(4)}`);
  await dialog.getByRole('button', { name: 'Move the card' }).click();
  await expect(page.getByTestId('correct-phone-error')).toContainText('Gift card already exists');
  await shot(page, testInfo, 'correct-phone-refused');
  const corrected = randomPhone();
  await dialog.getByLabel('Corrected phone number').fill(`0${corrected.slice(4, 7)} ${corrected.slice(7, 10)} ${corrected.slice(10)}`);
  await dialog.getByRole('button', { name: 'Move the card' }).click();
  await expect(page.getByTestId('correct-phone-notice')).toBeVisible();
  await expect(page.getByTestId('holder-phone')).toHaveText(corrected);
  await expect(page.locator('[data-kind="phone_corrected"]')).toContainText('Sent to another number');
  await shot(page, testInfo, 'correct-phone-done');
  const old = await page.request.get(url);
  expect(old.status()).toBe(404);
  expect(await balance(biz, cardNumber)).toBe(5_000);

  // The same dialog in Amharic, for a support person who reads it.
  await pool().query("UPDATE users SET language = 'am' WHERE email = $1", [biz.emails.support]);
  await page.reload();
  await page.getByRole('button', { name: 'ወደ ሌላ ቁጥር ይላኩ…' }).click();
  await expect(page.getByRole('dialog')).toContainText('የተስተካከለ ስልክ ቁጥር');
  await page
    .getByRole('dialog')
    .getByLabel('የተስተካከለ ስልክ ቁጥር')
    .fill(`0${taken.slice(4)}`);
  await page.getByRole('dialog').getByRole('button', { name: 'ካርዱን ያዛውሩ' }).click();
  await expect(page.getByTestId('correct-phone-error')).toContainText('ይህ ካርድ ቀድሞ አለ');
  await shot(page, testInfo, 'correct-phone-am');
});
