import { expect, type Page, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn, type SeededBusiness } from './dashboard-fixtures';

const ZONE = 'Africa/Addis_Ababa';
const dayIn = (at: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
const shift = (day: string, days: number) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

async function ok(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body.data;
}

/** A paid payment, a settled bank payout and a failed one in ETB; a top-up in USD. Fees: 1.5% on payments, 50 on bank payouts. */
async function seedMoney(biz: SeededBusiness) {
  const key = biz.keys.test;
  await ok(
    admin('PUT', `/api/admin/businesses/${biz.id}/fees`, {
      mode: 'test',
      rules: [
        { applies_to: 'bank', percent: '0', fixed: 50 },
        { applies_to: 'payment', percent: '1.5', fixed: 0 },
      ],
    }),
    'fees',
  );
  await ok(admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 1_000_000 }), 'deposit ETB');
  await ok(admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'USD', amount: 50_000 }), 'deposit USD');
  const etb = await ok(call('POST', '/api/v1/card', key, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Hana', last_name: 'Girma' }), 'card');
  const usd = await ok(
    call('POST', '/api/v1/card', key, { phone_number: randomPhone(), currency: 'USD', first_name: 'Yared', last_name: 'Tesfaye' }),
    'usd card',
  );
  for (const [card, amount] of [
    [etb.card_number, 300_000],
    [usd.card_number, 20_000],
  ] as const) {
    const t = await ok(call('POST', '/api/v1/transfers', key, { amount, bank_slug: 'link', account_number: card, account_name: 'Float' }), 'top-up');
    await ok(call('POST', `/api/v1/test-helpers/payouts/${t.provider_reference}/settle`, key, { status: 'success' }), 'settle top-up');
  }
  const payment = await ok(call('POST', '/api/v1/card/payments', key, { type: 'hosted', amount: 20_000, card_number: etb.card_number }), 'payment');
  await ok(call('POST', `/api/v1/test-helpers/payments/${payment.link_reference}/complete`, key, { status: 'success' }), 'pay');
  for (const status of ['success', 'failed'] as const) {
    const p = await ok(
      call('POST', '/api/v1/card/payouts', key, {
        card_number: etb.card_number,
        amount: 25_000,
        bank_slug: 'cbe',
        account_number: '1000123456123',
        account_name: 'Abebe',
      }),
      'bank payout',
    );
    await ok(call('POST', `/api/v1/test-helpers/payouts/${p.provider_reference}/settle`, key, { status }), 'settle');
  }
}

async function tabUntilDay(page: Page, currency: string) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const day = await page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.day ?? null);
    const inChart = await page.evaluate((c) => !!document.activeElement?.closest(`[data-testid="volume-days-${c}"]`), currency);
    if (day && inChart) return day;
  }
  throw new Error(`no day of the ${currency} chart took the keyboard focus`);
}

test('finance picks a period, sees net volume per currency, and reads any day by hover or keyboard', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const biz = await seedBusiness();
  await seedMoney(biz);
  const today = dayIn(new Date());
  await signIn(page, biz.emails.finance);

  // The default is the last 30 days, today included.
  await page.goto(`${baseUrl()}/`);
  await expect(page.getByRole('link', { name: '30 days' })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('period-range')).toContainText('(30 days)');
  await expect(page.getByTestId('net-volume-definition')).toContainText('Net volume is money paid in');
  const etb = page.getByTestId('period-ETB');
  // In: the paid payment. Out: the settled bank payout (the business pays its fee from the amount). Net: in minus out.
  await expect(etb.getByTestId('payments-in')).toContainText('ETB 200.00');
  await expect(etb.getByTestId('payments-in')).toContainText('1 paid payment');
  await expect(etb.getByTestId('payouts-out')).toContainText('ETB 250.00');
  await expect(etb.getByTestId('net-volume')).toContainText('-ETB 50.00');
  // Fees: 1.5% of the payment and 50 on the settled payout; the failed payout's fee went back.
  await expect(etb.getByTestId('fees')).toContainText('ETB 3.50');
  await expect(etb.getByTestId('failed')).toContainText('0 payments, 1 payout');
  await expect(etb.getByTestId('payouts-topup')).toContainText('ETB 3,000.00');
  const usd = page.getByTestId('period-USD');
  await expect(usd.getByTestId('net-volume')).toContainText('$0.00');
  await expect(usd.getByTestId('payouts-topup')).toContainText('$200.00');
  await expect(page.getByTestId('volume-chart-ETB')).toBeVisible();
  await expect(page.getByTestId('volume-chart-USD')).toBeVisible();
  await expect(page.getByTestId('volume-days-ETB').locator('[data-day]')).toHaveCount(30);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'overview-30-days');

  // Hover on today's column shows its date and values.
  const todayColumn = page.getByTestId('volume-days-ETB').locator(`[data-day="${today}"]`);
  await todayColumn.hover();
  const tooltip = page.getByTestId('volume-tooltip-ETB');
  await expect(tooltip).toBeVisible();
  await expect(tooltip).toContainText(
    new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(`${today}T12:00:00Z`)),
  );
  await expect(tooltip).toContainText('Money in (1)ETB 200.00');
  await expect(tooltip).toContainText('Payouts out (1)ETB 250.00');
  await expect(tooltip).toContainText('Net-ETB 50.00');
  await page.mouse.move(0, 0);
  await expect(tooltip).toHaveCount(0);

  // The keyboard: one tab stop per chart (today), arrow keys move between days, each showing its values.
  await page.getByRole('button', { name: 'Show period' }).focus();
  expect(await tabUntilDay(page, 'ETB')).toBe(today);
  await expect(tooltip).toContainText('Money in (1)ETB 200.00');
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /money in ETB\s200\.00 \(1\), payouts out ETB\s250\.00 \(1\), net -ETB\s50\.00/);
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator(':focus')).toHaveAttribute('data-day', shift(today, -1));
  await expect(tooltip).toContainText('Money in (0)ETB 0.00');
  await page.keyboard.press('Home');
  await expect(page.locator(':focus')).toHaveAttribute('data-day', shift(today, -29));
  await page.keyboard.press('End');
  await expect(page.locator(':focus')).toHaveAttribute('data-day', today);
  await screenshots(page, testInfo, 'overview-day-focused');
  await page.getByTestId('volume-chart-ETB').screenshot({ path: testInfo.outputPath('overview-chart-focused-desktop.png') });

  // Presets.
  await page.getByRole('link', { name: 'Today' }).click();
  await expect(page).toHaveURL(/\?period=today$/);
  await expect(page.getByTestId('period-range')).toContainText('(1 day)');
  await expect(page.getByTestId('period-ETB').getByTestId('net-volume')).toContainText('-ETB 50.00');
  await page.getByTestId('volume-days-ETB').locator(`[data-day="${today}"]`).hover();
  await expect(tooltip).toContainText('Net-ETB 50.00');
  await page.getByTestId('volume-chart-ETB').screenshot({ path: testInfo.outputPath('overview-chart-today-desktop.png') });
  await page.getByRole('link', { name: '7 days' }).click();
  await expect(page).toHaveURL(/\?period=7d$/);
  await expect(page.getByTestId('period-range')).toContainText('(7 days)');
  await expect(page.getByTestId('volume-days-ETB').locator('[data-day]')).toHaveCount(7);

  // A custom range from the form: the days before today hold nothing.
  await page.getByLabel('From', { exact: true }).fill(shift(today, -3));
  await page.getByLabel('To', { exact: true }).fill(shift(today, -1));
  await page.getByRole('button', { name: 'Show period' }).click();
  await expect(page).toHaveURL(new RegExp(`period=custom&from=${shift(today, -3)}&to=${shift(today, -1)}`));
  await expect(page.getByRole('link', { name: 'Custom' })).toHaveAttribute('aria-current', 'true');
  await expect(page.getByTestId('period-range')).toContainText('(3 days)');
  await expect(page.getByTestId('period-ETB').getByTestId('net-volume')).toContainText('ETB 0.00');
  await expect(page.getByTestId('period-ETB').getByTestId('payments-in')).toContainText('0 paid payments');

  // Bad ranges: a clear message beside the form, never an error page.
  for (const [query, message] of [
    [`from=${today}&to=${shift(today, -5)}`, 'To must be the same day as From or later.'],
    [`from=${shift(today, -400)}&to=${today}`, 'A custom period can be at most 366 days; this one is 401.'],
    ['from=banana&to=2026-01-01', 'From must be a date written as YYYY-MM-DD'],
    ['from=2026-02-30&to=2026-03-02', 'From is not a day of the calendar: 2026-02-30 does not exist.'],
  ]) {
    const res = await page.goto(`${baseUrl()}/?period=custom&${query}`);
    expect(res?.status(), query).toBe(200);
    await expect(page.getByTestId('period-error')).toContainText(message);
    await expect(page.getByTestId('period-ETB')).toHaveCount(0);
    // Balances and recent activity still show.
    await expect(page.getByRole('heading', { name: 'Balances now' })).toBeVisible();
  }
  await expect(page.getByLabel('From', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'overview-bad-range');

  // The longest custom period draws lines, and still fits a phone.
  await page.goto(`${baseUrl()}/?period=custom&from=${shift(today, -365)}&to=${today}`);
  await expect(page.getByTestId('period-range')).toContainText('(366 days)');
  await expect(page.getByTestId('volume-days-ETB').locator('[data-day]')).toHaveCount(366);
  await expect(page.getByTestId('period-ETB').getByTestId('net-volume')).toContainText('-ETB 50.00');
  // The same components as the 30-day page axe checked above; axe over 732 day points takes 20 s on these machines.
  await screenshots(page, testInfo, 'overview-366-days');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('volume-days-ETB').locator(`[data-day="${today}"]`).hover();
  await expect(tooltip).toContainText('ETB 200.00');
  await page.getByTestId('volume-chart-ETB').screenshot({ path: testInfo.outputPath('overview-366-days-hover-390px.png') });
});
