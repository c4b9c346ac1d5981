import { expect, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

// The browser sits in Tokyo on purpose: what the dashboard shows must follow the business's zone, not the viewer's.
test.use({ timezoneId: 'Asia/Tokyo' });

const wall = (timeZone: string, at: Date) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    at,
  );
const csvClock = (timeZone: string, at: Date) =>
  `${day(timeZone, at)} ${new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(at)}`;
const day = (timeZone: string, at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

test('an owner moves the business to another time zone, and every date, filter and export follows it', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Selam', last_name: 'Bekele' });
  expect(card.status).toBe(201);
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 5_000 })).status).toBe(200);
  const transfer = await call('POST', '/api/v1/transfers', biz.keys.test, {
    amount: 1_000,
    bank_slug: 'link',
    account_number: card.body.data.card_number,
    account_name: 'Float',
  });
  expect(transfer.status).toBe(200);
  const reference = transfer.body.data.provider_reference as string;
  const status = await call('GET', `/api/v1/card/payout/${reference}/status`, biz.keys.test);
  const createdAt = new Date(status.body.data.created_at);

  await signIn(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/payouts`);
  const row = page.getByTestId(`payout-${reference}`);
  await expect(row.locator('time')).toHaveText(wall('Africa/Addis_Ababa', createdAt));
  await expect(page.getByText(/Times in Africa\/Addis Ababa \(UTC\+3\)/).first()).toBeVisible();

  await page.goto(`${baseUrl()}/team`);
  await expect(page.getByLabel('Time zone')).toHaveValue('Africa/Addis_Ababa');
  await page.getByLabel('Time zone').selectOption('America/New_York');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByTestId('business-settings-notice')).toHaveText(/America\/New York/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'team-business-settings');

  await page.goto(`${baseUrl()}/payouts`);
  await expect(row.locator('time')).toHaveText(wall('America/New_York', createdAt));
  await expect(page.getByText(/Times in America\/New York \(UTC-[45]\)/).first()).toBeVisible();
  await expect(page.getByText(/From and to are whole days in America\/New York/)).toBeVisible();

  // The filter's days are the business's days: the payout is on its New York day, and not on the day after.
  const nyDay = day('America/New_York', createdAt);
  await page.goto(`${baseUrl()}/payouts?from=${nyDay}&to=${nyDay}`);
  await expect(row).toBeVisible();
  const next = new Date(Date.parse(`${nyDay}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  await page.goto(`${baseUrl()}/payouts?from=${next}&to=${next}`);
  await expect(row).toHaveCount(0);

  const csv = await page.request.get(`${baseUrl()}/payouts/export`);
  const [header, ...lines] = (await csv.text()).trim().split('\r\n');
  // Times are New York's wall clock, the zone named in the header; created_at_utc is the exact instant.
  const columns = header.split(',');
  const created = columns.indexOf('created_at (America/New_York)');
  const utc = columns.indexOf('created_at_utc');
  expect(created).toBeGreaterThan(-1);
  expect(lines[0].split(',')[created]).toBe(csvClock('America/New_York', createdAt));
  expect(lines[0].split(',')[utc]).toBe(createdAt.toISOString());
});
