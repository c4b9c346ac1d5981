import { expect, type Page, test } from '@playwright/test';
import { formatMoney } from '../components/ui/money';
import { baseUrl, call, download, expectAccessible, fundedCard, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

const csv = (text: string) => ({ name: 'upload.csv', mimeType: 'text/csv', buffer: Buffer.from(text, 'utf8') });

test('an operator uploads cards: preview with errors per row, start, progress to done, and a results file with formulas defused', async ({
  page,
}, testInfo) => {
  const biz = await seedBusiness();
  const [a, b] = [randomPhone(), randomPhone()];
  await signIn(page, biz.emails.operator);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/cards`);
  await page.getByRole('link', { name: 'Upload CSV' }).click();
  await expect(page).toHaveURL(/\/cards\/upload$/);
  await page
    .getByLabel('CSV file')
    .setInputFiles(
      csv(
        `\uFEFFphone_number;currency;first_name;last_name\r\n${a};ETB;Abebe;"Kebede; Jr"\r\n\r\n${b};USD;Sara;\r\n${randomPhone()};ETB;=1+1;\r\n0911;ETB;Local;\r\n`,
      ),
    );
  await screenshots(page, testInfo, 'cards-upload-form');
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page).toHaveURL(/\/cards\/upload\/upl_\w+$/);
  await expect(page.getByTestId('upload-valid')).toHaveText('2');
  await expect(page.getByTestId('upload-invalid')).toHaveText('2');
  await expect(page.getByText('first_name starts with "=" like a spreadsheet formula')).toBeVisible();
  await expect(page.getByText(/Invalid phone number/)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'cards-upload-preview');

  await page.getByRole('button', { name: 'Start 2 cards' }).click();
  await expect(page.getByTestId('upload-status-text')).toContainText('Done');
  await expect(page.getByTestId('upload-progress-text')).toHaveText('2 of 2 rows');
  await expect(page.getByRole('progressbar', { name: 'Progress' })).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('upload-succeeded')).toHaveText('2');
  await screenshots(page, testInfo, 'cards-upload-done');

  const results = await download(page, 'Download results (CSV)');
  expect(results.filename).toMatch(/^upload-cards-upl_\w+-test-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = results.text.trim().split('\r\n');
  expect(lines[0]).toMatch(/^line,outcome,reference,error_code,error,phone_number,currency,first_name,last_name,currency,fee,finished_at/);
  expect(lines).toHaveLength(5);
  expect(lines.find((l) => l.startsWith('2,'))).toMatch(/^2,succeeded,\d{16},,,/);
  expect(lines.find((l) => l.startsWith('5,'))).toContain(`'=1+1`);
  const cards = await call('GET', '/api/v1/card?limit=10', biz.keys.test);
  expect(cards.body.data.total).toBe(2);
});

test('finance uploads payouts: totals and fees per currency, then results; operators have no payouts upload', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const source = await fundedCard(biz, 100_000);
  const destination = (await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'To' })).body.data
    .card_number as string;
  await signIn(page, biz.emails.finance);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/payouts`);
  await page.getByRole('link', { name: 'Upload CSV' }).click();
  await page
    .getByLabel('CSV file')
    .setInputFiles(
      csv(`card_number,amount,destination_card_number\n${source},100.00,${destination}\n${source},"250.50",${destination}\n${source},abc,${destination}\n`),
    );
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page).toHaveURL(/\/payouts\/upload\/upl_\w+$/);
  await expect(page.getByTestId('upload-totals')).toContainText(formatMoney(35_050, 'ETB'));
  await expect(page.getByTestId('upload-totals')).toContainText('ETB: 2 payouts');
  await expect(page.getByText(/Enter an amount like 25/)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payouts-upload-preview');

  await page.getByRole('button', { name: 'Start 2 payouts' }).click();
  await expect(page.getByTestId('upload-status-text')).toContainText('Done');
  await expect(page.getByTestId('upload-progress-text')).toHaveText('2 of 2 rows');
  await screenshots(page, testInfo, 'payouts-upload-done');
  const results = await download(page, 'Download results (CSV)');
  const lines = results.text.trim().split('\r\n');
  expect(lines[0]).toMatch(/^line,outcome,reference,error_code,error,card_number,amount,destination_card_number/);
  expect(lines.filter((l) => /^\d+,succeeded,/.test(l))).toHaveLength(2);
  expect(lines.find((l) => l.startsWith('3,'))).toContain('250.50');
  expect(lines.find((l) => l.startsWith('4,'))).toMatch(/^4,invalid,,validation_error,/);
  expect((await call('GET', `/api/v1/card/${destination}`, biz.keys.test)).body.data.available_amount).toBe(35_050);

  await page.context().clearCookies();
  await signIn(page, biz.emails.operator);
  const refused = await page.goto(`${baseUrl()}/payouts/upload`);
  expect(refused?.status()).toBe(403);
});

/** Finance's upload of two payouts that together reach the owner's approval threshold of 500, started and waiting for a second person. */
async function payoutUploadAwaitingApproval(page: Page) {
  const biz = await seedBusiness();
  const source = await fundedCard(biz, 100_000);
  const destination = (await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'To' })).body.data
    .card_number as string;
  await signIn(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/approvals`);
  await page.getByLabel('ETB', { exact: true }).fill('500');
  await page.getByRole('button', { name: 'Save ETB' }).click();
  await expect(page.getByText('Saved: payouts of ETB 500.00 or more wait for approval.')).toBeVisible();

  // Each row is under the threshold; together they reach it.
  await page.context().clearCookies();
  await signIn(page, biz.emails.finance);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/payouts/upload`);
  await page
    .getByLabel('CSV file')
    .setInputFiles(csv(`card_number;amount;destination_card_number\n${source};300;${destination}\n${source};200;${destination}\n`));
  await page.getByRole('button', { name: 'Check file' }).click();
  await expect(page).toHaveURL(/\/payouts\/upload\/upl_\w+$/);
  const jobUrl = page.url();
  await page.getByRole('button', { name: 'Start 2 payouts' }).click();
  await expect(page.getByTestId('upload-status-text')).toContainText('waiting for a second person');
  await expect(page.getByRole('button', { name: 'Approve and run' })).toHaveCount(0);
  return { biz, source, destination, jobUrl };
}

test('a payout upload over the approval threshold waits for a second person: the owner approves what finance uploaded', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const { biz, source, destination, jobUrl } = await payoutUploadAwaitingApproval(page);
  await screenshots(page, testInfo, 'payouts-upload-awaiting');
  expect((await call('GET', `/api/v1/card/${destination}`, biz.keys.test)).body.data.available_amount).toBe(0);
  // Its 500.00 is held on the source card while it waits, as a form payout's would be.
  expect((await call('GET', `/api/v1/card/${source}`, biz.keys.test)).body.data.available_amount).toBe(50_000);

  await page.context().clearCookies();
  await signIn(page, biz.emails.owner);
  // It waits on the approvals page with every other request, linked to its rows.
  await page.goto(`${baseUrl()}/approvals`);
  const request = page.getByTestId('approval-request').filter({ hasText: 'Payout upload' });
  await expect(request).toContainText('2 rows');
  await expect(request.getByTestId('approval-amount')).toContainText('500.00');
  await request.getByRole('link', { name: 'Its rows' }).click();
  await expect(page).toHaveURL(jobUrl);
  await page.getByRole('button', { name: 'Approve and run' }).click();
  await expect(page.getByTestId('upload-status-text')).toContainText('Done');
  await expect(page.getByTestId('upload-succeeded')).toHaveText('2');
  expect((await call('GET', `/api/v1/card/${destination}`, biz.keys.test)).body.data.available_amount).toBe(50_000);
});

test('finance cancels its own waiting upload: the progress counts its rows as cancelled, not run, and nothing moves', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const { biz, source, destination } = await payoutUploadAwaitingApproval(page);
  await page.getByRole('button', { name: 'Cancel upload' }).click();
  await expect(page.getByTestId('upload-status-text')).toContainText('Cancelled');
  await expect(page.getByTestId('upload-progress-text')).toHaveText('0 of 2 rows (2 cancelled)');
  const bar = page.getByRole('progressbar', { name: 'Progress' });
  await expect(bar).toHaveAttribute('aria-valuetext', '0 of 2 rows (2 cancelled)');
  await expect(page.getByTestId('upload-succeeded')).toHaveText('0');
  await screenshots(page, testInfo, 'payouts-upload-cancelled');
  expect((await call('GET', `/api/v1/card/${destination}`, biz.keys.test)).body.data.available_amount).toBe(0);
  // Withdrawn: what it held is back on the card.
  expect((await call('GET', `/api/v1/card/${source}`, biz.keys.test)).body.data.available_amount).toBe(100_000);
});
