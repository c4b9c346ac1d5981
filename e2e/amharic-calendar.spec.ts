import { expect, test } from '@playwright/test';
import { admin, baseUrl, call, download, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

const ZONE = 'Africa/Addis_Ababa';
const LATIN = /[A-Za-z]/;

/** Today's Ethiopian month as ICU writes it in Amharic, read here apart from the app's own helpers: `ኅዳር 2019`. */
function ethiopianMonthNow() {
  const parts = new Intl.DateTimeFormat('am-u-ca-ethiopic', { timeZone: ZONE, year: 'numeric', month: 'long', day: 'numeric' }).formatToParts(new Date());
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { month: get('month'), year: get('year'), day: Number(get('day')) };
}

test('a finance user who chose Amharic and the Ethiopian calendar reads a month’s statement in them', async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  // The browser asks for English: the stored choice made in Account must win over it.
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const biz = await seedBusiness(`Addis books ${Date.now()}`);
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 123_456_789 })).status).toBe(200);
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Abebe' });
  expect(card.status).toBe(201);
  const topUp = await call('POST', '/api/v1/transfers', biz.keys.test, {
    amount: 250_000,
    bank_slug: 'link',
    account_number: card.body.data.card_number,
    account_name: 'Float',
  });
  expect(topUp.status).toBe(200);
  expect((await call('POST', `/api/v1/test-helpers/payouts/${topUp.body.data.provider_reference}/settle`, biz.keys.test, { status: 'success' })).status).toBe(
    200,
  );

  await signIn(page, biz.emails.finance);
  await page.goto(`${baseUrl()}/account`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByLabel('Language', { exact: true }).selectOption('am');
  await page.getByLabel('Calendar', { exact: true }).selectOption('ethiopic');
  await page.getByRole('button', { name: 'Save language and calendar' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('የእኔ መለያ');
  await expect(page.getByRole('navigation', { name: 'ዋና ማውጫ' }).getByRole('link', { name: 'ሪፖርቶች' })).toBeVisible();

  const { month, year, day } = ethiopianMonthNow();
  await page.goto(`${baseUrl()}/reports/statement`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('የድርጅት ሂሳብ መግለጫ');
  await page.getByLabel('ወር', { exact: true }).selectOption({ label: `${month} ${year}` });
  await page.getByRole('button', { name: 'አሳይ' }).click();
  await expect(page).toHaveURL(/eth_month=\d{4}-\d{2}/);
  // The month's first day to today, named in the Ethiopian calendar, with no Latin era letters.
  await expect(page.locator('#statement-summary-title')).toHaveText(`የETB ድርጅት ሂሳብ፣ ከ1 ${month} ${year} እስከ ${day} ${month} ${year}`);
  await expect(page.getByTestId('summary-in')).toContainText('ብር 1,234,567.89');
  await expect(page.getByTestId('summary-out')).toContainText('ብር 2,500.00');
  await expect(page.getByTestId('summary-closing')).toContainText('ብር 1,232,067.89');
  const table = page.getByTestId('statement-table');
  await expect(table.getByTestId('description').first()).toHaveText('ወደ ድርጅቱ ሂሳብ የገባ ተቀማጭ');
  const when = ((await table.locator('tbody tr td').first().textContent()) ?? '').trim();
  expect(when).toMatch(new RegExp(`^${day} ${month} ${year}, \\d{2}:\\d{2}$`));
  expect(when).not.toMatch(LATIN);

  // The Ethiopic text is drawn in the self-hosted Noto Sans Ethiopic, fetched from this app.
  await expect.poll(() => page.evaluate(() => document.fonts.check('16px "Noto Sans Ethiopic"', 'ሀ'))).toBe(true);
  const fonts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((r) => r.name)
      .filter((n) => n.includes('noto-sans-ethiopic')),
  );
  expect(fonts.length).toBeGreaterThan(0);
  expect(fonts.every((f) => f.startsWith(baseUrl()))).toBe(true);

  // The export keeps ISO 8601 and English column names whatever the reader's language.
  const csv = await download(page, 'CSV አውርድ');
  expect(csv.text.split('\n')[0]).toMatch(/^line,time \(Africa\/Addis_Ababa\),time_utc,currency,kind,description,/);
  expect(csv.text).toMatch(/\d{4}-\d{2}-\d{2}/);
  expect(csv.text).not.toMatch(/[\u1200-\u137F]/);

  await expectAccessible(page);
  await screenshots(page, testInfo, 'statement-amharic-ethiopic');

  // The card's story: every timestamp is written in the Ethiopian calendar too.
  await page.goto(`${baseUrl()}/cards/${card.body.data.card_number}`);
  await expect(page.locator('time').first()).toBeVisible();
  const times = await page.locator('time').allTextContents();
  expect(times.length).toBeGreaterThan(1);
  for (const t of times) expect(t).toMatch(new RegExp(`^${day} ${month} ${year}, \\d{2}:\\d{2}$`));
  await screenshots(page, testInfo, 'card-story-ethiopic');
  await context.close();
});

test('an operator whose browser asks for Amharic issues a card in it', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ locale: 'am-ET' });
  const page = await context.newPage();
  const biz = await seedBusiness(`Merkato gifts ${Date.now()}`);
  await signIn(page, biz.emails.operator);
  await page.goto(`${baseUrl()}/cards/new`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('አዲስ ካርድ');
  await expect(page.getByTestId('expiry-before-create')).toHaveText('ካርዶች ጊዜያቸው አያልፍም።');
  await expect(page.getByTestId('role')).toHaveText('ኦፕሬተር');
  await screenshots(page, testInfo, 'new-card-amharic');
  await page.getByLabel('ስልክ ቁጥር').fill(randomPhone());
  await page.getByLabel('ስም', { exact: true }).fill('ሊያ');
  await page.getByRole('button', { name: 'ካርድ ፍጠር' }).click();
  await expect(page).toHaveURL(/\/cards\/\d+\?created=1/);
  const number = /\/cards\/(\d+)/.exec(page.url())![1];
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`ካርድ ${number.replace(/(\d{4})(?=\d)/g, '$1 ')}`);
  await expect(page.getByText('ካርዱ ተፈጥሯል።')).toBeVisible();
  await expect(page.getByTestId('card-balance')).toHaveText('ብር 0.00');
  const made = await call('GET', `/api/v1/card/${number}`, biz.keys.test);
  expect(made.status).toBe(200);
  expect(made.body.data).toMatchObject({ card_number: number, currency: 'ETB' });

  await page.goto(`${baseUrl()}/cards`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ካርዶች');
  const table = page.getByTestId('cards-table');
  await expect(table.getByRole('columnheader', { name: 'ቀሪ ሂሳብ' })).toBeVisible();
  const row = table.locator('tbody tr').filter({ hasText: 'ሊያ' });
  await expect(row).toContainText('ብር 0.00');
  await expect(row).toContainText('ንቁ');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'cards-amharic');
  await context.close();
});
