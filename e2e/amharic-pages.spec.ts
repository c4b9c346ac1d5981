import { expect, type Page, test } from '@playwright/test';
import { baseUrl, expectAccessible, fundedCard, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

/** Interface words of the converted pages that must not be left in English for a reader of Amharic (whole words, case kept). */
const ENGLISH_WORDS = [
  'Overview',
  'Balances',
  'Recent activity',
  'Net volume',
  'Money in',
  'Payouts',
  'Payments',
  'Approvals',
  'Status',
  'Amount',
  'Filters',
  'Apply',
  'Clear',
  'Search',
  'Created',
  'Waiting',
  'History',
  'Approval thresholds',
  'Top-up',
  'Card',
  'success',
  'pending',
];

async function expectNoEnglish(page: Page) {
  const text = (await page.locator('main').textContent()) ?? '';
  const left = ENGLISH_WORDS.filter((w) => new RegExp(`\\b${w}\\b`).test(text));
  expect(left, `English left on ${page.url()}`).toEqual([]);
}

test('an owner whose browser asks for Amharic reads the overview, payouts, payments and approvals in it', async ({ browser }, testInfo) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({ locale: 'am-ET' });
  const page = await context.newPage();
  const biz = await seedBusiness(`Bole books ${Date.now()}`);
  await fundedCard(biz, 150_000);
  await signIn(page, biz.emails.owner);

  await page.goto(`${baseUrl()}/`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('አጠቃላይ እይታ');
  await expect(page.getByRole('heading', { name: 'የአሁኑ ቀሪ ሂሳብ' })).toBeVisible();
  await expect(page.getByRole('link', { name: '30 ቀናት' })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('period-range')).toContainText('(30 ቀናት)');
  await expect(page.getByTestId('period-ETB').getByTestId('payouts-topup')).toContainText('ብር 1,500.00');
  await expect(page.getByRole('link', { name: 'ከድርጅቱ ቀሪ ሂሳብ መሙላት' })).toBeVisible();
  await expectNoEnglish(page);
  await screenshots(page, testInfo, 'overview-amharic');

  await page.goto(`${baseUrl()}/payouts`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ወጪ ክፍያዎች');
  const payouts = page.getByTestId('payouts-table');
  await expect(payouts.getByRole('columnheader', { name: 'መጠን' })).toBeVisible();
  await expect(payouts.locator('tbody tr').first()).toContainText('ብር 1,500.00');
  await expect(payouts.locator('tbody tr').first()).toContainText('ተሳክቷል');
  await expect(page.getByTestId('totals-count')).toHaveText('1 ወጪ ክፍያ');
  await expect(page.getByRole('button', { name: 'አጣራ' })).toBeVisible();
  await expectNoEnglish(page);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payouts-amharic');

  await payouts.locator('tbody tr').first().getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ከድርጅቱ ቀሪ ሂሳብ መሙላት');
  await expect(page.getByTestId('payout-status')).toHaveText('ተሳክቷል');
  await expect(page.getByRole('heading', { name: 'የሂሳብ መዝገብ ግብይቶች' })).toBeVisible();
  await expect(page.getByTestId('payout-amount')).toHaveText('ብር 1,500.00');
  await expectNoEnglish(page);
  await screenshots(page, testInfo, 'payout-amharic');

  await page.goto(`${baseUrl()}/payments`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ገቢ ክፍያዎች');
  await expect(page.getByText('እስካሁን ገቢ ክፍያ የለም')).toBeVisible();
  await expectNoEnglish(page);
  await screenshots(page, testInfo, 'payments-amharic');

  await page.goto(`${baseUrl()}/approvals`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ማጽደቂያ');
  await expect(page.getByText('ማጽደቅ የሚጠብቅ ነገር የለም')).toBeVisible();
  await page.getByLabel('ETB', { exact: true }).fill('500');
  await page.getByRole('button', { name: 'ETB አስቀምጥ' }).click();
  await expect(page.getByText('ተቀምጧል፤ ETB 500.00 እና ከዚያ በላይ የሆኑ ወጪ ክፍያዎች ማጽደቅን ይጠብቃሉ።')).toBeVisible();
  // A refused threshold reads its error code in Amharic, not the core's English sentence.
  await page.getByLabel('ETB', { exact: true }).fill('abc');
  await page.getByRole('button', { name: 'ETB አስቀምጥ' }).click();
  const said = page.locator('#threshold-ETB-message');
  await expect(said).toHaveAttribute('role', 'alert');
  await expect(said).toHaveText('ያስገቡት መረጃ ትክክል አይደለም፤ እባክዎ ያስተካክሉ።');
  await expectNoEnglish(page);
  await screenshots(page, testInfo, 'approvals-amharic');
  await context.close();
});
