import { expect, type Locator, type Page, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn, type SeededBusiness } from './dashboard-fixtures';

/**
 * Latin words a page may show a reader of Amharic: currency codes, file and protocol names, a CSV column, and what
 * people typed or the service named (holders' names, the business's). References, numbers, emails and file names
 * (a token with a digit, an underscore, an @ or a dot inside) are names too.
 */
const ALLOWED = new Set([
  'ETB',
  'USD',
  'CSV',
  'UTF',
  'B2B',
  'OTP',
  'Abebe',
  'Kebede',
  'Hanna',
  'Tesfaye',
  'Returned',
  'goods',
  'amount',
  'Addis',
  'Shop',
  'Africa',
  'Ababa',
  'colour',
]);

/** Every Latin word left in an element's visible text, apart from the allowed names: what a reader of Amharic would read in English. */
async function englishIn(scope: Locator): Promise<string[]> {
  // biome-ignore lint/performance/useDomNodeTextContent: the words a reader sees, laid out, not the text of every node run together
  const tokens = (await scope.innerText()).replace(/https?:\/\/\S+/g, ' ').split(/[\s·,;:()"'“”/…\u1200-\u137F]+/);
  const words = tokens.filter((w) => /[A-Za-z]{2,}/.test(w) && !/[\d_@]|\w\.\w/.test(w)).map((w) => w.replace(/[.?!]+$/, ''));
  return [...new Set(words.filter((w) => !ALLOWED.has(w)))];
}

async function expectNoEnglish(page: Page, scope: Locator = page.locator('main')) {
  expect(await englishIn(scope), `English left on ${page.url()}`).toEqual([]);
}

async function newCard(biz: SeededBusiness, first = 'Abebe', last = 'Kebede') {
  const res = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: first, last_name: last });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.card_number as string;
}

async function fund(biz: SeededBusiness, card: string, amount: number) {
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount })).status).toBe(200);
  const t = await call('POST', '/api/v1/transfers', biz.keys.test, { amount, bank_slug: 'link', account_number: card, account_name: 'Float' });
  expect(t.status).toBe(200);
  expect((await call('POST', `/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, biz.keys.test, { status: 'success' })).status).toBe(200);
}

/** Today's Ethiopian year as ICU writes it, read apart from the app's helpers: every date on the pages is in it. */
const ethiopianYear = () =>
  new Intl.DateTimeFormat('am-u-ca-ethiopic', { timeZone: 'Africa/Addis_Ababa', year: 'numeric' }).formatToParts(new Date()).find((p) => p.type === 'year')!
    .value;

let biz: SeededBusiness;
let source: string;
let other: string;

test.beforeAll(async () => {
  biz = await seedBusiness(`Addis Shop ${Date.now()}`);
  source = await newCard(biz);
  other = await newCard(biz, 'Hanna', 'Tesfaye');
  await fund(biz, source, 30_000_000);
});

/** Signs the owner in with the browser asking for English, and chooses Amharic and the Ethiopian calendar in Account (once). */
async function amharicOwner(page: Page) {
  await signIn(page, biz.emails.owner);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/account`);
  // The choice is the person's, kept from the spec's first test.
  if ((await page.locator('html').getAttribute('lang')) === 'am') return;
  await page.getByLabel('Language', { exact: true }).selectOption('am');
  await page.getByLabel('Calendar', { exact: true }).selectOption('ethiopic');
  await page.getByRole('button', { name: 'Save language and calendar' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
}

test('an owner who reads Amharic and the Ethiopian calendar sends money: field errors, refusals, the confirm dialog and the payout in Amharic', async ({
  page,
}, testInfo) => {
  test.setTimeout(150_000);
  await amharicOwner(page);
  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ክፍያ ላክ');
  await expect(page.getByLabel('የሚከፍለው ካርድ ቁጥር')).toHaveValue(source);
  await expect(page.getByText('በካርዱ ላይ ብር 300,000.00 አለ።').first()).toBeVisible();

  // The form's own checks, said in Amharic on their fields.
  await page.getByRole('button', { name: 'ክፍያውን ላክ' }).click();
  await expect(page.locator('#destination_card_number-error')).toHaveText('የተቀባዩን ካርድ ቁጥር ያስገቡ።');
  await expect(page.locator('#amount-error')).toHaveText('መጠን ያስገቡ።');
  await page.getByLabel('የተቀባዩ ካርድ ቁጥር').fill(other.replace(/(\d{4})(?=\d)/g, '$1 '));
  await expect(page.getByTestId('recipient-card')).toContainText(`መጨረሻው ${other.slice(-4)} የሆነ ካርድ`);
  await page.getByLabel(/^መጠን/).fill('25,50');
  await page.getByRole('button', { name: 'ክፍያውን ላክ' }).click();
  await expect(page.locator('#amount-error')).toHaveText('ለአስርዮሽ ነጥብ ይጠቀሙ፤ ለምሳሌ 25.50።');

  // A refusal of the core, by its code: more than the card holds.
  await page.getByLabel(/^መጠን/).fill('400,000');
  await expect(page.getByTestId('preview-refusals')).toHaveText('በካርዱ ላይ ለዚህ ክፍያና ለአገልግሎት ክፍያው የሚበቃ ገንዘብ የለም።');
  await page.getByRole('button', { name: 'ክፍያውን ላክ' }).click();
  await expect(page.locator('#amount-error')).toHaveText('በካርዱ ላይ ለዚህ ክፍያና ለአገልግሎት ክፍያው የሚበቃ ገንዘብ የለም።');
  await expectNoEnglish(page);
  await screenshots(page, testInfo, 'amharic-send-refused');

  await page.getByLabel(/^መጠን/).fill('150,000.50');
  await expect(page.getByTestId('preview-amount')).toHaveText('ብር 150,000.50');
  await page.getByRole('button', { name: 'ክፍያውን ላክ' }).click();
  const dialog = page.getByRole('dialog', { name: 'ወደዚህ ካርድ ይላክ?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('ብር 150,000.50');
  await expect(dialog.getByTestId('confirm-words')).toHaveText('አንድ መቶ ሃምሳ ሺህ ብር ከሃምሳ ሳንቲም');
  await expect(dialog.getByRole('button', { name: 'ተመለስ' })).toBeVisible();
  await expectNoEnglish(page, dialog);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'amharic-send-confirm');

  await dialog.getByRole('button', { name: 'ብር 150,000.50 ላክ' }).click();
  await expect(page).toHaveURL(/\/payouts\/(?!new)[^/?]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectNoEnglish(page);

  // The source card's page: its forms and dialogs, and its story telling the payout and a redemption in Amharic.
  await page.goto(`${baseUrl()}/cards/${source}`);
  await page.getByRole('button', { name: 'ካርዱን አግድ…' }).click();
  const disable = page.getByRole('dialog', { name: `መጨረሻው ${source.slice(-4)} የሆነው ካርድ ይታገድ?` });
  await expect(disable).toBeVisible();
  await expectNoEnglish(page, disable);
  await screenshots(page, testInfo, 'amharic-card-disable-dialog');
  await disable.getByRole('button', { name: 'ንቁ ሆኖ ይቆይ' }).click();
  await page.getByLabel('የሚመነዘረው መጠን (ETB)').fill('0');
  await page.getByRole('button', { name: 'ከካርዱ መንዝር' }).click();
  await expect(page.locator('#redeem-amount-error')).toHaveText('ከዜሮ በላይ የሆነ መጠን ያስገቡ።');
  await page.getByLabel('የሚመነዘረው መጠን (ETB)').fill('25');
  await page.getByRole('button', { name: 'ከካርዱ መንዝር' }).click();
  await expect(page.getByTestId('redeem-outcome')).toContainText('ብር 25.00 ተመንዝሯል');
  const story = page.getByTestId('card-story');
  await expect(story.getByTestId('story-title').first()).toHaveText('በድርጅቱ ተመንዝሯል');
  await expect(story.getByTestId('story-title').nth(1)).toHaveText('ከካርድ ወደ ካርድ ክፍያ');
  await expect(story.getByTestId('story-title').last()).toHaveText('ካርዱ ተፈጠረ');
  await expect(story.locator('time').first()).toContainText(ethiopianYear());
  await expectNoEnglish(page);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'amharic-card-story');
});

test('the same owner starts a payment and refunds part of a paid one, in Amharic', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await amharicOwner(page);
  await page.goto(`${baseUrl()}/payments/new?card=${other}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('አዲስ ገቢ ክፍያ');
  await page.getByLabel('መጠን').fill('120,000');
  await page.getByRole('button', { name: 'የክፍያ ማገናኛ ፍጠር' }).click();
  const dialog = page.getByRole('dialog', { name: 'ይህን ያህል ትልቅ የክፍያ ማገናኛ ይፈጠር?' });
  await expect(dialog.getByTestId('confirm-words')).toHaveText('አንድ መቶ ሃያ ሺህ');
  await expectNoEnglish(page, dialog);
  await screenshots(page, testInfo, 'amharic-payment-confirm');
  await dialog.getByRole('button', { name: 'ማገናኛውን ፍጠር' }).click();
  const created = page.getByTestId('payment-created');
  await expect(created.getByRole('heading', { name: 'ክፍያው ተጀምሯል' })).toBeVisible();
  await expect(created).toContainText('ብር 120,000.00');
  await expect(page.getByRole('button', { name: 'ቅዳ' })).toBeVisible();
  await expectNoEnglish(page);
  await screenshots(page, testInfo, 'amharic-payment-created');

  // A paid payment: its refund form, a refusal on the amount, then a refund.
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, { type: 'hosted', amount: 10_000, card_number: other });
  const ref = payment.body.data.link_reference as string;
  expect((await call('POST', `/api/v1/test-helpers/payments/${ref}/complete`, biz.keys.test, { status: 'success' })).status).toBe(200);
  await page.goto(`${baseUrl()}/payments/${ref}`);
  await expect(page.getByRole('heading', { name: 'ተመላሽ ክፍያዎች' })).toBeVisible();
  await page.getByRole('button', { name: 'ገንዘብ መልስ', exact: true }).click();
  const amount = page.getByLabel('የሚመለሰው መጠን (ETB)');
  await expect(amount).toHaveValue('100.00');
  await amount.fill('180');
  await page.getByRole('button', { name: 'ብር 180.00 መልስ' }).click();
  await expect(page.locator('#refund-amount-error')).toHaveText('ከዚህ ክፍያ ሊመለስ የቀረው ቢበዛ ብር 100.00 ነው።');
  await amount.fill('0');
  await page.getByRole('button', { name: 'ገንዘብ መልስ', exact: true }).click();
  await expect(page.locator('#refund-amount-error')).toHaveText('ከዜሮ በላይ የሆነ መጠን ያስገቡ።');
  // The refunds panel is this spec's; the rest of the payment's page is e2e/amharic-pages.spec.ts's.
  const refunds = page.locator('section', { has: page.getByRole('heading', { name: 'ተመላሽ ክፍያዎች' }) });
  await expectNoEnglish(page, refunds);
  await screenshots(page, testInfo, 'amharic-refund-refused');
  await amount.fill('25.50');
  await page.getByLabel('ምክንያት (አማራጭ)').fill('Returned goods');
  await page.getByRole('button', { name: 'ብር 25.50 መልስ' }).click();
  await expect(page.getByTestId('refund-outcome')).toContainText('ብር 25.50 ተመልሷል');
  await expect(page.getByTestId('refunded-amount')).toHaveText('ብር 25.50');
  await expect(page.getByTestId('refund-list')).toContainText('ተሳክቷል');
  await expectNoEnglish(page, refunds);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'amharic-refund-done');
});

test('the same owner uploads payouts: the form, row errors and the run in Amharic', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  await amharicOwner(page);
  await page.goto(`${baseUrl()}/payouts/upload`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ወጪ ክፍያዎችን በፋይል ጫን');
  await page.getByRole('button', { name: 'ፋይሉን ፈትሽ' }).click();
  await expect(page.getByText('መጀመሪያ የCSV ፋይል ይምረጡ።')).toBeVisible();
  // The picker's button is ours, in Amharic: the browser would draw its own in the browser's language.
  await expect(page.getByRole('button', { name: 'ፋይል ይምረጡ' })).toBeVisible();
  await expect(page.getByTestId('upload-file-name')).toHaveText('ምንም ፋይል አልተመረጠም');
  const file = (text: string) => ({ name: 'payouts.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });
  // A file the service cannot read is refused in Amharic.
  await page.getByLabel('የCSV ፋይል').setInputFiles(file('card_number,amount,colour\n4000000000000002,5,red\n'));
  await page.getByRole('button', { name: 'ፋይሉን ፈትሽ' }).click();
  await expect(page.getByText(/ያልታወቀ ዓምድ፦ colour/)).toBeVisible();
  await expect(page.getByTestId('upload-file-name')).toHaveText('payouts.csv');
  await expectNoEnglish(page, page.locator('main form'));
  await screenshots(page, testInfo, 'amharic-upload-form');

  await page
    .getByLabel('የCSV ፋይል')
    .setInputFiles(
      file(`card_number,amount,destination_card_number\n${source},100.00,${other}\n${source},"250.50",${other}\n${source},abc,${other}\n0000,5,${other}\n`),
    );
  await page.getByRole('button', { name: 'ፋይሉን ፈትሽ' }).click();
  await expect(page).toHaveURL(/\/payouts\/upload\/upl_\w+$/);
  await expect(page.getByTestId('upload-totals')).toContainText('ETB፦ 2 ወጪ ክፍያዎች');
  await expect(page.getByTestId('upload-totals')).toContainText('ብር 350.50');
  await expect(page.getByTestId('upload-row').first()).toContainText('ስህተት ያለበት');
  await expect(page.getByText('ያስገቡት መረጃ ትክክል አይደለም፤ እባክዎ ያስተካክሉ። (amount)')).toBeVisible();
  await expectNoEnglish(page);
  await screenshots(page, testInfo, 'amharic-upload-preview');

  await page.getByRole('button', { name: '2 ወጪ ክፍያዎች ጀምር' }).click();
  await expect(page.getByTestId('upload-status-text')).toContainText('ተጠናቋል');
  await expect(page.getByTestId('upload-progress-text')).toHaveText('ከ2 ረድፎች 2');
  await expectNoEnglish(page);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'amharic-upload-done');

  await page.goto(`${baseUrl()}/payouts/upload`);
  await expect(page.getByRole('heading', { name: 'የቅርብ ጊዜ ፋይሎች' })).toBeVisible();
  await expect(page.locator('main').getByText(ethiopianYear()).first()).toBeVisible();
  await expectNoEnglish(page);
  await screenshots(page, testInfo, 'amharic-upload-list');
});
