import { expect, test } from '@playwright/test';
import pg from 'pg';
import { admin, baseUrl, call, download, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';
import { parseCsv } from '../tests/parse-csv';

const TZ = 'Africa/Addis_Ababa';

const dayIn = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

async function ok(res: Promise<{ status: number; body: any }>) {
  const r = await res;
  expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  return r.body.data;
}

async function card(key: string, currency = 'ETB') {
  return (await ok(call('POST', '/api/v1/card', key, { phone_number: randomPhone(), currency, first_name: 'Hanna', last_name: 'Girma' })))
    .card_number as string;
}

async function topUp(key: string, cardNumber: string, amount: number, status: 'success' | 'failed') {
  const t = await ok(call('POST', '/api/v1/transfers', key, { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Float' }));
  await ok(call('POST', `/api/v1/test-helpers/payouts/${t.provider_reference}/settle`, key, { status }));
  return t.provider_reference as string;
}

test('finance reads the business account statement and the daily reconciliation, filters them and exports both', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const biz = await seedBusiness(`Ledger books ${Date.now()}`);
  const partner = await seedBusiness(`Partner ${Date.now()}`);
  for (const [b, currency, amount] of [
    [biz, 'ETB', 1_000_000],
    [biz, 'USD', 50_000],
    [partner, 'ETB', 100_000],
  ] as const) {
    expect((await admin('POST', `/api/admin/businesses/${b.id}/balance`, { mode: 'test', currency, amount })).status).toBe(200);
  }
  const [main, second, doomed, partnerCard] = await Promise.all([card(biz.keys.test), card(biz.keys.test), card(biz.keys.test), card(partner.keys.test)]);
  const topupSettled = await topUp(biz.keys.test, main, 300_000, 'success');
  const topupFailed = await topUp(biz.keys.test, second, 10_000, 'failed');
  await topUp(biz.keys.test, doomed, 4_000, 'success');
  await topUp(partner.keys.test, partnerCard, 50_000, 'success');
  const hosted = await ok(call('POST', '/api/v1/card/payments', biz.keys.test, { type: 'hosted', amount: 20_000, card_number: main }));
  await ok(call('POST', `/api/v1/test-helpers/payments/${hosted.link_reference}/complete`, biz.keys.test, { status: 'success' }));
  const c2c = await ok(call('POST', '/api/v1/card/payouts', biz.keys.test, { card_number: main, destination_card_number: second, amount: 15_000 }));
  await ok(call('POST', '/api/v1/card/payouts', biz.keys.test, { card_number: main, merchant_id: partner.merchantId, amount: 12_000 }));
  const received = await ok(call('POST', '/api/v1/card/payouts', partner.keys.test, { card_number: partnerCard, merchant_id: biz.merchantId, amount: 9_000 }));
  await ok(call('DELETE', `/api/v1/card/${doomed}`, biz.keys.test));

  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    const balances = await db.query<{ currency: string; balance: string }>(
      `SELECT currency, balance FROM ledger_accounts WHERE kind = 'business' AND business_id = $1 AND mode = 'test'`,
      [biz.id],
    );
    const etbBalance = Number(balances.rows.find((r) => r.currency === 'ETB')!.balance);
    const b2bCredit = Number(
      (
        await db.query<{ amount: string }>(
          `SELECT e.amount FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id JOIN ledger_accounts a ON a.id = e.account_id
           WHERE t.reference = $1 AND a.kind = 'business'`,
          [received.provider_reference],
        )
      ).rows[0].amount,
    );
    // The ETB account: the deposit, three top-ups out, the failed one back, the swept card, the B2B payout received.
    expect(etbBalance).toBe(1_000_000 - 314_000 + 10_000 + 4_000 + b2bCredit);

    await signIn(page, biz.emails.finance);
    await page.goto(`${baseUrl()}/reports`);
    await page.getByRole('link', { name: 'Business account statement' }).click();
    await expect(page.getByRole('heading', { name: 'Business account statement', level: 1 })).toBeVisible();
    const money = (minor: number) => `ETB ${(minor / 100).toLocaleString('en', { minimumFractionDigits: 2 })}`;
    await expect(page.getByTestId('summary-opening').locator('dd').first()).toHaveText('ETB 0.00');
    await expect(page.getByTestId('summary-closing').locator('dd').first()).toHaveText(money(etbBalance));
    await expect(page.getByTestId('summary-out').locator('dd').first()).toHaveText(money(314_000));
    await expect(page.getByTestId('statement-table').locator('tbody tr')).toHaveCount(7);
    // B2B received names the paying business, and nothing of its cards or holders.
    const b2bLine = page.getByTestId('statement-table').locator('tbody tr', { hasText: received.provider_reference });
    await expect(b2bLine.getByTestId('description')).toHaveText(`Business payout received from ${partner.name}`);
    await expect(page.getByTestId('statement-table')).not.toContainText(partnerCard);
    // The failed top-up: out, then back, under one reference.
    await expect(page.getByTestId('statement-table').locator('tbody tr', { hasText: topupFailed }).getByTestId('description')).toHaveText([
      `Top-up paid to card ${second}`,
      `Top-up to card ${second} returned: it could not be delivered`,
    ]);
    await expect(page.getByTestId('statement-table').locator('tbody tr').last().getByTestId('balance-after')).toContainText(money(etbBalance));
    await expect(page.getByRole('link', { name: 'see them in Payouts' })).toHaveAttribute('href', '/payouts?type=b2b');
    await expectAccessible(page);
    await screenshots(page, testInfo, 'statement');

    // Top-ups only: their total out; the balances stay the account's.
    await page.getByLabel('Kind of movement').selectOption('topup');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/kind=topup/);
    await expect(page.getByTestId('statement-table').locator('tbody tr')).toHaveCount(3);
    await expect(page.getByTestId('statement-table').locator('tbody tr', { hasText: topupSettled })).toContainText(`Top-up paid to card ${main}`);
    await expect(page.getByTestId('summary-closing').locator('dd').first()).toHaveText(money(etbBalance));

    // The export follows the page's choices: opening first, the three top-ups, the closing line with their total.
    const topups = await download(page, 'Export CSV');
    expect(topups.filename).toMatch(/^statement-ETB-\d{4}-\d\d-01-to-\d{4}-\d\d-\d\d-test-\d{4}-\d\d-\d\d\.csv$/);
    const topupRows = parseCsv(topups.text);
    expect(topupRows.map((r) => r.line)).toEqual(['opening', 'movement', 'movement', 'movement', 'closing']);
    expect(topupRows.at(-1)).toMatchObject({ money_out: '3140.00', money_out_minor: '314000', balance_after_minor: String(etbBalance) });
    expect(topupRows[1][`time (${TZ})`]).toMatch(new RegExp(`^${dayIn(new Date())} \\d\\d:\\d\\d:\\d\\d$`));

    // Every movement, exported and summed: opening + in - out = closing.
    await page.getByLabel('Kind of movement').selectOption('');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page.getByTestId('statement-table').locator('tbody tr')).toHaveCount(7);
    const rows = parseCsv((await download(page, 'Export CSV')).text);
    const moves = rows.filter((r) => r.line === 'movement');
    const sum = (k: string) => moves.reduce((a, r) => a + Number(r[k] || 0), 0);
    expect(Number(rows[0].balance_after_minor) + sum('money_in_minor') - sum('money_out_minor')).toBe(Number(rows.at(-1)!.balance_after_minor));
    expect(rows.find((r) => r.kind === 'b2b_received')).toMatchObject({
      paying_business: partner.name,
      card_number: '',
      reference: received.provider_reference,
    });

    // USD: its own account.
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page.getByTestId('summary-closing').locator('dd').first()).toHaveText('$500.00');
    await expect(page.getByTestId('statement-table').locator('tbody tr')).toHaveCount(1);

    // A range before anything happened: no movements, nothing opening or closing.
    await page.goto(`${baseUrl()}/reports/statement?from=2024-01-01&to=2024-01-31`);
    await expect(page.getByText('No movements in this range')).toBeVisible();
    await expect(page.getByTestId('summary-closing').locator('dd').first()).toHaveText('ETB 0.00');

    // A bad day is named on its field; the export refuses it.
    await page.goto(`${baseUrl()}/reports/statement?from=2026-02-30&currency=XYZ`);
    await expect(page.getByText('Enter the day as YYYY-MM-DD')).toBeVisible();
    await expect(page.getByText('Currency must be one of')).toBeVisible();
    await expect(page.getByTestId('statement-errors')).toBeVisible();
    await expectAccessible(page);
    expect((await page.request.get(`${baseUrl()}/reports/statement/export?from=2026-02-30`)).status()).toBe(400);

    // The reconciliation: today reconciles in both currencies.
    await page.goto(`${baseUrl()}/reports`);
    await page.getByRole('link', { name: 'Daily reconciliation' }).click();
    await expect(page.getByRole('heading', { name: 'Daily reconciliation', level: 1 })).toBeVisible();
    const today = dayIn(new Date());
    const etbDay = page.getByTestId(`recon-day-${today}-ETB`);
    await expect(etbDay.getByTestId('status')).toHaveText(/Reconciles/);
    await expect(page.getByTestId(`recon-day-${today}-USD`).getByTestId('status')).toHaveText(/Reconciles/);
    await expect(etbDay.getByTestId('fig-deposits')).toHaveText('10,000.00');
    await expect(etbDay.getByTestId('fig-topupsSent')).toHaveText('3,140.00');
    await expect(etbDay.getByTestId('fig-topupsReturned')).toHaveText('100.00');
    await expect(etbDay.getByTestId('fig-paymentsHosted')).toHaveText('200.00');
    await expect(page.getByTestId('recon-verdict')).toContainText('Every day reconciles');
    await expect(page.getByRole('heading', { name: 'What each column means' })).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, testInfo, 'reconciliation');

    const recon = await download(page, 'Export CSV');
    expect(recon.filename).toMatch(/^reconciliation-/);
    const reconRows = parseCsv(recon.text);
    expect(reconRows.filter((r) => r.line === 'day').map((r) => [r[`day (${TZ})`], r.currency, r.reconciles])).toEqual([
      [today, 'ETB', 'yes'],
      [today, 'USD', 'yes'],
    ]);
    const etbLine = reconRows.find((r) => r.line === 'day' && r.currency === 'ETB')!;
    expect(etbLine).toMatchObject({ deposits: '10000.00', deposits_minor: '1000000', topups_sent_minor: '314000', payments_hosted_minor: '20000' });
    expect(etbLine.trial_debits_minor).toBe(etbLine.trial_credits_minor);

    // Only USD.
    await page.getByLabel('Currency').selectOption('USD');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(page).toHaveURL(/currency=USD/);
    await expect(page.getByTestId('recon-table-ETB')).toHaveCount(0);
    await expect(page.getByTestId('recon-table-USD')).toBeVisible();

    // A payout row that no longer agrees with the ledger turns its day red, naming the transaction; put back after.
    await db.query(`UPDATE payouts SET service_fee = service_fee + 1 WHERE reference = $1`, [c2c.initiator_reference]);
    try {
      await page.goto(`${baseUrl()}/reports/reconciliation`);
      await expect(etbDay.getByTestId('status')).toHaveText(/Does not reconcile \(1\)/);
      await expect(page.getByTestId('recon-verdict')).toContainText('1 of 2 days do not reconcile');
      const problem = page.getByTestId(`recon-problems-${today}-ETB`).getByTestId('recon-problem');
      await expect(problem).toHaveCount(1);
      await expect(problem).toContainText(c2c.initiator_reference);
      await expect(problem).toContainText('payout card to card');
      await expect(problem.getByTestId('off-by')).toContainText('-0.01');
      await expectAccessible(page);
      await screenshots(page, testInfo, 'reconciliation-broken');
      const broken = parseCsv((await download(page, 'Export CSV')).text).find((r) => r.line === 'day' && r.currency === 'ETB')!;
      expect(broken.reconciles).toBe('no');
      expect(broken.problems).toContain(c2c.initiator_reference);
    } finally {
      await db.query(`UPDATE payouts SET service_fee = service_fee - 1 WHERE reference = $1`, [c2c.initiator_reference]);
    }

    await page.goto(`${baseUrl()}/reports/reconciliation?from=2020-01-01&to=2026-02-30`);
    await expect(page.getByText('Enter the day as YYYY-MM-DD')).toBeVisible();
    await expectAccessible(page);
    expect((await page.request.get(`${baseUrl()}/reports/reconciliation/export?currency=EUR`)).status()).toBe(400);
  } finally {
    await db.end();
  }
});

test('support is refused both reports and their exports', async ({ page }) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.support);
  for (const path of ['/reports/statement', '/reports/reconciliation']) {
    await page.goto(`${baseUrl()}${path}`);
    await expect(page.getByText('Your role does not give you access to this page.')).toBeVisible();
  }
  for (const path of ['/reports/statement/export', '/reports/reconciliation/export']) {
    expect((await page.request.get(`${baseUrl()}${path}`)).status()).toBe(403);
  }
});
