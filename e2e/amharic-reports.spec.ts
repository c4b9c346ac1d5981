import { expect, test } from '@playwright/test';
import { admin, baseUrl, download, expectAccessible, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

const ZONE = 'Africa/Addis_Ababa';
const LATIN = /[A-Za-z]/;

/** Today as ICU writes it in Amharic and the Ethiopian calendar, read apart from the app's own helpers. */
function ethiopianToday() {
  const parts = new Intl.DateTimeFormat('am-u-ca-ethiopic', { timeZone: ZONE, year: 'numeric', month: 'long', day: 'numeric' }).formatToParts(new Date());
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { month: get('month'), year: get('year'), day: Number(get('day')) };
}

test('a finance user reading Amharic and the Ethiopian calendar reconciles an Ethiopian month', async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const biz = await seedBusiness(`Bole books ${Date.now()}`);
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 123_456_789 })).status).toBe(200);

  await signIn(page, biz.emails.finance);
  await page.goto(`${baseUrl()}/account`);
  await page.getByLabel('Language', { exact: true }).selectOption('am');
  await page.getByLabel('Calendar', { exact: true }).selectOption('ethiopic');
  await page.getByRole('button', { name: 'Save language and calendar' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');

  await page.goto(`${baseUrl()}/reports`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ሪፖርቶች');
  await page.getByRole('link', { name: 'የዕለት ሂሳብ ማስታረቅ' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('የዕለት ሂሳብ ማስታረቅ');

  const { month, year, day } = ethiopianToday();
  await page.getByLabel('ወር', { exact: true }).selectOption({ label: `${month} ${year}` });
  await page.getByLabel('የበጀት ዓመት', { exact: true }).selectOption('');
  await page.getByRole('button', { name: 'አሳይ' }).click();
  await expect(page).toHaveURL(/eth_month=\d{4}-\d{2}/);
  await expect(page.getByLabel('ወር', { exact: true }).locator('option:checked')).toHaveText(`${month} ${year}`);

  // The month's first day to today: the deposit made today is in it, the day named in the Ethiopian calendar.
  await expect(page.getByTestId('recon-verdict')).toHaveText(
    'ሁሉም ቀናት ይታረቃሉ፦ እንቅስቃሴ ያላቸው 1 ቀንና የገንዘብ ዓይነት፣ እያንዳንዳቸው ሚዛናቸውን የጠበቁና ከክፍያዎችዎና ከገቢዎችዎ ጋር የሚስማሙ ናቸው።',
  );
  const table = page.getByTestId('recon-table-ETB');
  await expect(table.getByRole('columnheader', { name: 'ተቀማጮች' })).toBeVisible();
  const row = table.locator('tbody tr').first();
  await expect(row.locator('time')).toHaveText(`${day} ${month} ${year}`);
  expect(await row.locator('time').textContent()).not.toMatch(LATIN);
  await expect(row.getByTestId('fig-deposits')).toHaveText('1,234,567.89');
  await expect(row.getByTestId('status')).toHaveText(/ይታረቃል/);

  // The export keeps ISO days and English column names.
  const csv = await download(page, 'CSV አውርድ');
  expect(csv.text.split('\n')[0]).toMatch(/^line,day \(Africa\/Addis_Ababa\),currency,reconciles,transactions,/);
  expect(csv.text).toMatch(/\nday,\d{4}-\d{2}-\d{2},ETB,yes,/);
  expect(csv.text).not.toMatch(/[\u1200-\u137F]/);

  await expectAccessible(page);
  await screenshots(page, testInfo, 'reconciliation-amharic-ethiopic');

  // The liability as of the end of the same month, named in the Ethiopian calendar.
  await page.goto(`${baseUrl()}/reports/liability`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ዕዳና ጥቅም ላይ የማይውል ቀሪ');
  await page.getByLabel('ወር', { exact: true }).selectOption({ label: `${month} ${year}` });
  await page.getByRole('button', { name: 'አሳይ' }).click();
  await expect(page).toHaveURL(/eth_month=\d{4}-\d{2}/);
  await expect(page.getByTestId('as-of')).toContainText(`${day} ${month} ${year}`);
  await screenshots(page, testInfo, 'liability-amharic-ethiopic');
  await context.close();
});
