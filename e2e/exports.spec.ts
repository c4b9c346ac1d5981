import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { admin, baseUrl, call, randomPhone, seedBusiness, signIn } from './dashboard-fixtures';
import { parseCsv } from '../tests/parse-csv';

async function payment(key: string, body: Record<string, unknown>, outcome: 'success' | 'failed') {
  const created = await call('POST', '/api/v1/card/payments', key, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const reference = created.body.data.link_reference as string;
  const done = await call('POST', `/api/v1/test-helpers/payments/${reference}/complete`, key, { status: outcome });
  expect(done.status).toBe(200);
  return reference;
}

test('finance filters the payments page and exports what it shows, amounts in units and minor units', async ({ page }) => {
  const biz = await seedBusiness();
  expect(
    (await admin('PUT', `/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [{ applies_to: 'payment', percent: '1.5', fixed: 0 }] })).status,
  ).toBe(200);
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Liya', last_name: 'Bekele' });
  expect(card.status).toBe(201);
  const cardNumber = card.body.data.card_number as string;
  const hosted = await payment(biz.keys.test, { type: 'hosted', amount: 20_050, card_number: cardNumber }, 'success');
  await payment(biz.keys.test, { type: 'hosted', amount: 3_000, card_number: cardNumber }, 'failed');
  await payment(
    biz.keys.test,
    { type: 'direct-charge', amount: 5_000, card_number: cardNumber, phone_number: '+251911000111', payment_method: 'telebirr' },
    'success',
  );

  await signIn(page, biz.emails.finance);
  await page.goto(`${baseUrl()}/payments`);
  await page.getByLabel('Type').selectOption('hosted');
  await page.getByLabel('Status').selectOption('success');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/status=success/);
  const exportLink = page.getByRole('link', { name: 'Export CSV' });
  await expect(exportLink).toHaveAttribute('href', /type=hosted/);

  const [download] = await Promise.all([page.waitForEvent('download'), exportLink.click()]);
  expect(download.suggestedFilename()).toMatch(/^payments-test-\d{4}-\d\d-\d\d\.csv$/);
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text.slice(0, text.indexOf('\r\n'))).toContain('created_at (Africa/Addis_Ababa)');
  const rows = parseCsv(text);
  // Only the paid hosted payment: the failed one and the wallet charge are filtered out, as on the page.
  expect(rows).toHaveLength(1);
  const [row] = rows;
  // 1.5% of 200.50 is 3.0075, rounded half up to 3.01; the customer paid 203.51 and the card received 200.50.
  expect(row).toMatchObject({
    reference: hosted,
    type: 'hosted',
    status: 'success',
    currency: 'ETB',
    amount: '200.50',
    fee: '3.01',
    net: '200.50',
    amount_minor: '20050',
    fee_minor: '301',
    net_minor: '20050',
    card_number: cardNumber,
    failure_reason: '',
  });
  expect(row['created_at (Africa/Addis_Ababa)']).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
});
