import { expect, test } from '@playwright/test';
import pg from 'pg';
import { admin, baseUrl, call, download, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';
import { parseCsv } from '../tests/parse-csv';

const TZ = 'Africa/Addis_Ababa';

const dayIn = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
const daysBefore = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) - n * 86_400_000).toISOString().slice(0, 10);

async function card(key: string, currency: string, names: Record<string, string> = { first_name: 'Abel', last_name: 'Tesfaye' }) {
  const res = await call('POST', '/api/v1/card', key, { phone_number: randomPhone(), currency, ...names });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.card_number as string;
}

async function topUp(key: string, cardNumber: string, amount: number) {
  const t = await call('POST', '/api/v1/transfers', key, { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Float' });
  expect(t.status, JSON.stringify(t.body)).toBe(200);
  expect((await call('POST', `/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, key, { status: 'success' })).status).toBe(200);
}

// A history older than a year can only be made by moving entries back in time: the API writes "now".
const databaseUrl = process.env.E2E_DATABASE_URL;

test('finance reads the liability as of any day, aged, with dormant cards, breakage and both exports', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  for (const [currency, amount] of [
    ['ETB', 1_000_000],
    ['USD', 50_000],
  ] as const) {
    expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency, amount })).status).toBe(200);
  }
  const dormant = await card(biz.keys.test, 'ETB', { first_name: 'Liya', last_name: 'Bekele' });
  const active = await card(biz.keys.test, 'ETB');
  const usd = await card(biz.keys.test, 'USD');
  await topUp(biz.keys.test, dormant, 100_000);
  await topUp(biz.keys.test, active, 50_000);
  await topUp(biz.keys.test, usd, 20_000);
  const move = await call('POST', '/api/v1/card/payouts', biz.keys.test, { card_number: dormant, destination_card_number: active, amount: 10_000 });
  expect(move.status, JSON.stringify(move.body)).toBeLessThan(300);

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    // The dormant card was loaded and last moved 400 days ago; the USD card 100 days ago; the other ETB card today.
    for (const [cardNumber, days] of [
      [dormant, 400],
      [usd, 100],
    ] as const) {
      await db.query(
        `UPDATE ledger_entries SET created_at = created_at - make_interval(days => $2) WHERE account_id = (SELECT account_id FROM cards WHERE card_number = $1)`,
        [cardNumber, days],
      );
    }
  } finally {
    await db.end();
  }

  await signIn(page, biz.emails.finance);
  await page.goto(`${baseUrl()}/reports`);
  await page.getByRole('link', { name: 'Liability and breakage' }).click();
  await expect(page.getByRole('heading', { name: 'Liability and breakage', level: 1 })).toBeVisible();

  // Today: ETB 900.00 dormant + 600.00 active; USD 200.00 idle for 100 days.
  const etb = page.getByTestId('liability-ETB');
  await expect(etb.getByTestId('liability-total')).toHaveText('ETB 1,500.00');
  await expect(etb.getByTestId('liability-cards')).toHaveText('2');
  await expect(etb.getByTestId('liability-reconciled')).toContainText('Matches the ledger’s current card balances (ETB 1,500.00)');
  await expect(etb.getByTestId('bucket-over-365').getByTestId('bucket-balance')).toHaveText('ETB 900.00');
  await expect(etb.getByTestId('bucket-0-30').getByTestId('bucket-balance')).toHaveText('ETB 600.00');
  await expect(etb.getByTestId('liability-dormant')).toContainText('ETB 900.00');
  const usdPanel = page.getByTestId('liability-USD');
  await expect(usdPanel.getByTestId('bucket-91-180').getByTestId('bucket-cards')).toHaveText('1');
  await expect(usdPanel.getByTestId('liability-total')).toHaveText('$200.00');

  // Dormant list: the one ETB card, named as this business named it, linked to its page.
  const row = page.getByTestId(`dormant-${dormant}`);
  await expect(row.getByTestId('holder')).toHaveText('Liya Bekele');
  await expect(row.getByTestId('balance')).toHaveText('ETB 900.00');
  await expect(row.getByRole('link', { name: dormant })).toHaveAttribute('href', `/cards/${dormant}`);
  await expect(page.getByTestId('dormant-table').locator('tbody tr')).toHaveCount(1);

  // Breakage: of ETB 1,000.00 loaded over a year ago, 900.00 is on a dormant card: 90%, applied to 1,500.00. USD is too young.
  await expect(page.getByTestId('breakage-method')).toContainText('share still sitting on cards that have not moved for over 365 days');
  await expect(page.getByTestId('breakage-ETB').getByTestId('breakage-rate')).toHaveText('90.0%');
  await expect(page.getByTestId('breakage-ETB').getByTestId('breakage-expected')).toHaveText('ETB 1,350.00');
  await expect(page.getByTestId('breakage-USD').getByTestId('breakage-too-short')).toContainText('not enough history');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'liability-today');

  // Both exports, parsed.
  const aged = await download(page, 'Export aged summary');
  expect(aged.filename).toMatch(/^liability-aged-\d{4}-\d\d-\d\d-test-\d{4}-\d\d-\d\d\.csv$/);
  const agedRows = parseCsv(aged.text);
  const today = dayIn(new Date());
  const line = (currency: string, bucket: string) => agedRows.find((r) => r.currency === currency && r.days_since_last_activity === bucket);
  expect(line('ETB', 'over-365')).toMatchObject({ [`as_of_end_of_day (${TZ})`]: today, cards: '1', balance: '900.00', balance_minor: '90000' });
  expect(line('ETB', 'total')).toMatchObject({ cards: '2', balance: '1500.00', balance_minor: '150000' });
  expect(line('USD', '91-180')).toMatchObject({ cards: '1', balance: '200.00', balance_minor: '20000', days_from: '91', days_to: '180' });
  expect(agedRows).toHaveLength(12);

  const dormantFile = await download(page, 'Export dormant cards');
  expect(dormantFile.filename).toMatch(/^liability-dormant-/);
  const dormantRows = parseCsv(dormantFile.text);
  expect(dormantRows).toEqual([
    expect.objectContaining({
      card_number: dormant,
      holder_name: 'Liya Bekele',
      currency: 'ETB',
      balance: '900.00',
      balance_minor: '90000',
      dormant_after_days: '365',
      [`as_of_end_of_day (${TZ})`]: today,
    }),
  ]);
  expect(dormantRows[0][`last_activity (${TZ})`]).toMatch(new RegExp(`^${daysBefore(today, 400)} \\d\\d:\\d\\d:\\d\\d$`));
  expect(Number(dormantRows[0].days_since_last_activity)).toBe(400);

  // As of 200 days ago: only the dormant card held money then (its last move was 200 days before that day).
  const past = daysBefore(today, 200);
  await page.getByLabel('As of the end of').fill(past);
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(new RegExp(`day=${past}`));
  await expect(page.getByTestId('liability-reconciled')).toHaveCount(0);
  await expect(etb.getByTestId('liability-total')).toHaveText('ETB 900.00');
  await expect(etb.getByTestId('bucket-181-365').getByTestId('bucket-cards')).toHaveText('1');
  // USD cards hold money now, so the currency shows, owing nothing then.
  await expect(usdPanel.getByTestId('liability-total')).toHaveText('$0.00');
  await expect(page.getByTestId('dormant-table')).toHaveCount(0);
  await expect(page.getByTestId('breakage-ETB')).toContainText('not enough history');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'liability-past');

  // A shorter window makes the dormant card count there, and the exports follow the page's choices.
  await page.getByLabel('Dormant after (days)').fill('90');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByTestId(`dormant-${dormant}`)).toBeVisible();
  const pastAged = parseCsv((await download(page, 'Export aged summary')).text);
  expect(pastAged.find((r) => r.days_since_last_activity === 'total')).toMatchObject({
    currency: 'ETB',
    [`as_of_end_of_day (${TZ})`]: past,
    balance: '900.00',
  });

  // A bad day is named on its field, never a failure page; the export refuses it with a 400.
  await page.goto(`${baseUrl()}/reports/liability?day=2026-02-30&dormant=abc`);
  await expect(page.getByText('Enter the day as YYYY-MM-DD')).toBeVisible();
  await expect(page.getByText('Enter a whole number of days')).toBeVisible();
  await expect(page.getByTestId('liability-errors')).toBeVisible();
  await expect(etb.getByTestId('liability-total')).toHaveText('ETB 1,500.00');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'liability-bad-input');
  const refused = await page.request.get(`${baseUrl()}/reports/liability/export/aged?day=tomorrow`);
  expect(refused.status()).toBe(400);
});

test('support is refused the liability report and its exports', async ({ page }) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.support);
  await page.goto(`${baseUrl()}/reports/liability`);
  await expect(page.getByText('Your role does not give you access to this page.')).toBeVisible();
  for (const file of ['aged', 'dormant']) {
    expect((await page.request.get(`${baseUrl()}/reports/liability/export/${file}`)).status()).toBe(403);
  }
});
