import { expect, test, type Page } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn, type SeededBusiness } from './dashboard-fixtures';

async function newCard(key: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/api/v1/card', key, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Hanna', last_name: 'Tesfaye', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.card_number as string;
}

async function fundCard(biz: SeededBusiness, cardNumber: string, amount: number) {
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount })).status).toBe(200);
  const transfer = await call('POST', '/api/v1/transfers', biz.keys.test, { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Float' });
  expect(transfer.status).toBe(200);
  const settled = await call('POST', `/api/v1/test-helpers/payouts/${transfer.body.data.provider_reference}/settle`, biz.keys.test, { status: 'success' });
  expect(settled.body.data.status).toBe('success');
}

/** The number as the dashboard shows it: groups of four. */
const spaced = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');
const balanceOf = async (biz: SeededBusiness, n: string) => (await call('GET', `/api/v1/card/${n}`, biz.keys.test)).body.data.available_amount as number;
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);

let a: SeededBusiness;
let b: SeededBusiness;
let source: string;
let own: string;
let theirs: string;

test.beforeAll(async () => {
  [a, b] = [await seedBusiness(`Sender Shop ${Date.now()}`), await seedBusiness(`Receiver Mart ${Date.now()}`)];
  source = await newCard(a.keys.test, { first_name: 'Abebe', last_name: 'Kebede' });
  own = await newCard(a.keys.test);
  theirs = await newCard(b.keys.test, { first_name: 'Secret', last_name: 'Holdername' });
  await fundCard(a, source, 5_000_000);
  expect(
    (await admin('PUT', `/api/admin/businesses/${a.id}/fees`, { mode: 'test', rules: [{ applies_to: 'card_to_card', percent: '1', fixed: 0 }] })).status,
  ).toBe(200);
});

test('an operator pastes a spaced card number, sees who it reaches, confirms, and the payout is sent once', async ({ page }, testInfo) => {
  await signIn(page, a.emails.operator);
  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await page.getByLabel('Destination card number').fill(spaced(own));
  const recipient = page.getByTestId('recipient-card');
  await expect(recipient).toContainText('Hanna T.');
  await expect(recipient).toContainText(`card ending ${own.slice(-4)}`);
  await expect(recipient).toContainText('ETB');
  await expect(recipient).not.toContainText('Tesfaye');
  await page.getByLabel(/^Amount/).fill('1,000');
  await expect(page.getByTestId('preview-fee')).toHaveText(/10\.00/);
  await expect(page.getByTestId('preview-debit')).toHaveText(/1,010\.00/);
  await expect(page.getByTestId('preview-credit')).toHaveText(/1,000\.00/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'send-c2c-form');

  // Sending asks first, showing the recipient and the figures; a double click sends nothing more.
  await page.getByRole('button', { name: 'Send payout' }).dblclick();
  const dialog = page.getByRole('dialog', { name: 'Send to this card?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('recipient-card')).toContainText('Hanna T.');
  await expect(dialog).toContainText('ETB 1,010.00 leaves the card; the destination gets ETB 1,000.00.');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'send-c2c-confirm');
  expect(await balanceOf(a, source)).toBe(5_000_000);
  await dialog.getByRole('button', { name: 'Send ETB 1,000.00' }).dblclick();
  await expect(page).toHaveURL(/\/payouts\/c2c_/);
  expect(await balanceOf(a, source)).toBe(5_000_000 - 101_000);
  expect(await balanceOf(a, own)).toBe(100_000);
});

test('another business’s card shows that business’s name, never its holder’s', async ({ page }, testInfo) => {
  await signIn(page, a.emails.operator);
  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await page.getByLabel('Destination card number').fill(theirs.replace(/(\d{4})(?=\d)/g, '$1-'));
  const recipient = page.getByTestId('recipient-card');
  await expect(recipient).toContainText(b.name);
  await expect(recipient).toContainText(`card ending ${theirs.slice(-4)}`);
  await expect(page.getByTestId('recipient')).not.toContainText('Secret');
  await expect(page.getByTestId('recipient')).not.toContainText('Holdername');
  await screenshots(page, testInfo, 'send-c2c-other-business');

  // A card that cannot receive is said so before anything is sent, and the field gets the focus.
  expect((await call('PATCH', `/api/v1/card/${theirs}`, b.keys.test, { status: 'disable' })).status).toBe(200);
  await page.getByLabel('Destination card number').fill(theirs);
  await page.getByLabel(/^Amount/).fill('5');
  await page.getByRole('button', { name: 'Send payout' }).click();
  // Looked up again on sending, not taken from what was shown before.
  await expect(page.locator('#destination_card_number-error')).toHaveText('This card is disabled and cannot receive money until it is enabled.');
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(await focusedId(page)).toBe('destination_card_number');
  expect((await call('PATCH', `/api/v1/card/${theirs}`, b.keys.test, { status: 'enable' })).status).toBe(200);
});

test('a bank payout: banks for the card’s currency only; errors keep every field and focus the first wrong one; a big amount the card cannot pay is refused without asking', async ({
  page,
}, testInfo) => {
  await signIn(page, a.emails.operator);
  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await page.getByLabel('Bank or wallet account').check();
  const bank = page.getByLabel('Bank or wallet', { exact: true });
  await expect(bank).toBeEnabled();
  const offered = await bank.locator('option').allTextContents();
  expect(offered).toContain('Commercial Bank of Ethiopia (bank)');
  expect(offered).toContain('telebirr (wallet)');
  expect(offered.join()).not.toMatch(/Stanbic|MTN MoMo|CAC International/);

  await bank.selectOption('dashen');
  await page.getByLabel('Account number').fill('1000200034001');
  await page.getByLabel(/^Amount/).fill('25.505');
  await page.getByRole('button', { name: 'Send payout' }).click();
  // The account holder's name comes before the amount: it gets the focus; both say what is wrong.
  await expect(page.locator('#account_name-error')).toHaveText('Enter the account holder’s name.');
  await expect(page.locator('#amount-error')).toHaveText('Use at most two decimals.');
  expect(await focusedId(page)).toBe('account_name');
  await expect(bank).toHaveValue('dashen');
  await expect(page.getByLabel('Account number')).toHaveValue('1000200034001');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'send-bank-errors');

  // An account the bank would refuse is refused on its field, in the API's words, before any question.
  await page.getByLabel('Account holder’s name').fill('Abebe Kebede');
  await page.getByLabel('Account number').fill('12345');
  await page.getByLabel(/^Amount/).fill('10');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.locator('#account_number-error')).toHaveText('Dashen Bank account numbers have 13 digits.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(await focusedId(page)).toBe('account_number');
  await screenshots(page, testInfo, 'send-bank-short-account');
  // A wallet number is held to digits of the wallet's length: ten characters with a + are not ten digits.
  await bank.selectOption('telebirr');
  await page.getByLabel('Account number').fill('+251911000');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.locator('#account_number-error')).toHaveText('telebirr account numbers have 10 digits.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await screenshots(page, testInfo, 'send-wallet-not-digits');
  await bank.selectOption('dashen');
  await page.getByLabel('Account number').fill('1000200034001');

  // More than the card holds, and above the confirmation threshold: refused on the amount at once, never asked to be confirmed.
  await page.getByLabel('Account holder’s name').fill('Abebe Kebede');
  await page.getByLabel(/^Amount/).fill('150 000');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.locator('#amount-error')).toHaveText('The card does not hold enough for this payout and its fee.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await screenshots(page, testInfo, 'send-bank-refused-large');
  expect(await focusedId(page)).toBe('amount');
  await expect(bank).toHaveValue('dashen');
  await expect(page.getByLabel('Account number')).toHaveValue('1000200034001');
  await expect(page.getByLabel('Account holder’s name')).toHaveValue('Abebe Kebede');
  await expect(page.getByLabel(/^Amount/)).toHaveValue('150 000');
  expect(await balanceOf(a, source)).toBeGreaterThan(0);

  // The too-large amount gets the real limit.
  await page.getByLabel(/^Amount/).fill('20,000,000,000');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.locator('#amount-error')).toHaveText('The most one amount can be is 10,000,000,000.00.');
});

test('a USD card is offered only the banks and wallets that take USD', async ({ page }) => {
  const usd = await newCard(a.keys.test, { currency: 'USD' });
  await signIn(page, a.emails.operator);
  await page.goto(`${baseUrl()}/payouts/new?card=${usd}`);
  await page.getByLabel('Bank or wallet account').check();
  const bank = page.getByLabel('Bank or wallet', { exact: true });
  await expect(bank.locator('option', { hasText: 'Dashen Bank' })).toHaveCount(1);
  const offered = await bank.locator('option').allTextContents();
  expect(offered.join()).not.toMatch(/Commercial Bank of Ethiopia|telebirr|Awash/);
});

test('a payment link of a billion asks first, in words; an empty sign-in says what is missing', async ({ page }, testInfo) => {
  await signIn(page, a.emails.operator);
  await page.goto(`${baseUrl()}/payments/new`);
  // The card as the dashboard shows it; its currency picks the wallets offered.
  await page.getByLabel('Card number').fill(spaced(source));
  await page.getByLabel('Direct wallet charge').check();
  const wallet = page.getByLabel('Wallet', { exact: true });
  await expect(wallet.locator('option', { hasText: 'telebirr' })).toHaveCount(1);
  expect((await wallet.locator('option').allTextContents()).join()).not.toMatch(/WAAFI|MTN MoMo/);
  await page.getByLabel('Hosted link to share').check();
  await page.getByLabel('Amount', { exact: true }).fill('1,000,000,000');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('1,000,000,000.00');
  await expect(dialog.getByTestId('confirm-words')).toHaveText('one billion');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payment-confirm-large');
  await dialog.getByRole('button', { name: 'Create the link' }).click();
  await expect(page.getByTestId('payment-created')).toContainText('ETB 1,000,000,000.00');

  await page.context().clearCookies();
  await page.goto(`${baseUrl()}/login`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Enter your' })).toHaveText('Enter your email and password.');
  expect(await focusedId(page)).toBe('email');
});

test('a business payout opened from a link shows the business by name and is sent only after a yes', async ({ page }, testInfo) => {
  await signIn(page, a.emails.operator);
  await page.goto(`${baseUrl()}/payouts/new?type=b2b&merchant_id=${b.merchantId}`);
  await expect(page.getByRole('radio', { name: /Another business/ })).toBeChecked();
  await page.getByLabel('Source card number').fill(spaced(source));
  await page.getByLabel(/^Amount/).fill('20');
  await expect(page.getByTestId('merchant-name')).toHaveText(`Pays ${b.name}`);
  const before = await balanceOf(a, source);
  await page.getByRole('button', { name: 'Send payout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pay this business?' });
  await expect(dialog.getByTestId('confirm-business')).toContainText(b.name);
  await expect(dialog.getByTestId('confirm-business')).toContainText(b.merchantId);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'send-b2b-confirm');
  expect(await balanceOf(a, source)).toBe(before);
  await dialog.getByRole('button', { name: /^Send ETB 20\.00/ }).click();
  await expect(page).toHaveURL(/\/payouts\/(?!new)[^/?]+$/);
  expect(await balanceOf(a, source)).toBeLessThan(before);

  // An unknown merchant id is refused on its field before anything is asked or sent.
  await page.goto(`${baseUrl()}/payouts/new?type=b2b&merchant_id=mer_doesnotexist`);
  await page.getByLabel('Source card number').fill(source);
  await page.getByLabel(/^Amount/).fill('20');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.locator('#merchant_id-error')).toHaveText('No other business has this merchant id.');
  await expect.poll(() => focusedId(page)).toBe('merchant_id');
});

test('a card top-up of 100,000.00 or more asks first, in words, and then makes the link', async ({ page }) => {
  await signIn(page, a.emails.operator);
  await page.goto(`${baseUrl()}/cards/${own}`);
  await page.getByLabel('Amount (ETB)').fill('150,000');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create a payment link this large?' });
  await expect(dialog.getByTestId('top-up-confirm-amount')).toHaveText(/ETB\s150,000\.00/);
  await expect(dialog).toContainText('one hundred fifty thousand');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: /^Yes, ETB/ }).click();
  await expect(page.getByTestId('payment-link')).toContainText('Payment link for ETB');
});
