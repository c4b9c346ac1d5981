import { randomUUID } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, fundedCard, seedBusiness, signIn, type SeededBusiness } from './dashboard-fixtures';

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };

/** A paid checkout payment of `amount`, refunded by `refunded` through the API (nothing when 0). */
async function paidPayment(biz: SeededBusiness, card: string, amount: number, refunded: number) {
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, { type: 'hosted', amount, card_number: card });
  expect(payment.status).toBe(201);
  const ref = payment.body.data.link_reference as string;
  expect((await call('POST', `/api/v1/test-helpers/payments/${ref}/complete`, biz.keys.test, { status: 'success' })).status).toBe(200);
  if (refunded) {
    const res = await fetch(`${baseUrl()}/api/v1/card/payments/${ref}/refund`, {
      method: 'POST',
      headers: { authorization: `Bearer ${biz.keys.test}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify({ amount: refunded }),
    });
    expect(res.status, await res.text()).toBeLessThan(300);
  }
  return ref;
}

const top = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .first()
    .evaluate((e) => e.getBoundingClientRect().top);

test('the first screen: balances lead the Overview, a laptop sees list rows under one filter bar, a phone has one Menu button', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const card = await fundedCard(biz, 50_000);
  await paidPayment(biz, card, 1_000, 0);
  await signIn(page, biz.emails.owner);

  // Overview at 1280 × 800: balances and recent activity come before the period's picker and charts, on the first screen.
  await page.setViewportSize(LAPTOP);
  await page.goto(`${baseUrl()}/`);
  const balances = await top(page, 'balance-ETB');
  expect(balances, 'the balances row starts on the first screen').toBeLessThan(LAPTOP.height);
  expect(balances).toBeLessThan(await top(page, 'period-range'));
  await page.screenshot({ path: testInfo.outputPath('overview-1280.png') });

  // A list with filters at 1280 × 800: one bar of filters, then rows, with no scrolling.
  for (const path of ['/payouts', '/payments']) {
    await page.goto(`${baseUrl()}${path}?status=success`);
    const firstRow = page.locator(`[data-testid="${path.slice(1)}-table"] tbody tr`).first();
    await expect(firstRow).toBeVisible();
    const rowTop = await firstRow.evaluate((r) => r.getBoundingClientRect().bottom);
    expect(rowTop, `${path}: the first row ends ${rowTop} px down`).toBeLessThan(LAPTOP.height);
    // Every filter is on one line: the same top for search, status, dates and per page.
    const tops = await page.evaluate(() =>
      ['filter-q', 'filter-type', 'filter-status', 'filter-from', 'filter-to', 'filter-sort', 'filter-size'].map((id) =>
        Math.round(document.getElementById(id)!.getBoundingClientRect().top),
      ),
    );
    expect(new Set(tops).size, `filter tops ${tops}`).toBe(1);
  }
  await page.screenshot({ path: testInfo.outputPath('payments-filtered-1280.png') });

  // At 390 px the navigation is one Menu button; it opens onto every item and closes on the way to a page.
  await page.setViewportSize(PHONE);
  await page.goto(`${baseUrl()}/`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const menu = nav.getByRole('button', { name: 'Menu' });
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Payments', exact: true })).toBeHidden();
  const navBox = await nav.boundingBox();
  expect(navBox!.height, 'the navigation takes one row').toBeLessThanOrEqual(56);
  // Above it, two rows: the business with the mode switch, then search (Account and Sign out are in the Menu).
  const banner = await page.getByTestId('test-mode-banner').boundingBox();
  expect(navBox!.y - banner!.height, 'the header above the Menu').toBeLessThanOrEqual(130);
  expect(await top(page, 'balance-ETB')).toBeLessThan(PHONE.height);
  await page.screenshot({ path: testInfo.outputPath('overview-390.png') });
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  for (const name of ['Overview', 'Cards', 'Payouts', 'Payments', 'Reports', 'Approvals', 'Developers', 'Audit log', 'Team', 'Settings', 'Account']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(nav.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('phone-menu-open-390.png') });
  await nav.getByRole('link', { name: 'Payments', exact: true }).click();
  await expect(page).toHaveURL(/\/payments$/);
  await expect(menu).toHaveAttribute('aria-expanded', 'false');
  await expect(nav.getByRole('link', { name: 'Cards', exact: true })).toBeHidden();
  await page.screenshot({ path: testInfo.outputPath('payments-390.png') });

  // Wide screens keep the row of links and no Menu button.
  await page.setViewportSize(LAPTOP);
  await expect(menu).toBeHidden();
  await expect(nav.getByRole('link', { name: 'Cards', exact: true })).toBeVisible();
});

test('a payment refunded in full or in part says so in the list, on the Overview and on its page', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const card = await fundedCard(biz, 50_000);
  const full = await paidPayment(biz, card, 2_000, 2_000);
  const part = await paidPayment(biz, card, 3_000, 500);
  const none = await paidPayment(biz, card, 4_000, 0);
  await signIn(page, biz.emails.finance);
  await page.setViewportSize(LAPTOP);

  await page.goto(`${baseUrl()}/payments`);
  await expect(page.getByTestId(`payment-${full}`).getByTestId('refunded-label')).toHaveText('Refunded');
  await expect(page.getByTestId(`payment-${part}`).getByTestId('refunded-label')).toHaveText('Partly refunded');
  await expect(page.getByTestId(`payment-${none}`).getByTestId('refunded-label')).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('payments-refunded-1280.png') });

  await page.goto(`${baseUrl()}/`);
  await expect(page.getByTestId('refunded-label')).toHaveText(['Partly refunded', 'Refunded']);

  await page.goto(`${baseUrl()}/payments/${part}`);
  await expect(page.getByTestId('payment-status')).toHaveText('success');
  await expect(page.getByTestId('refunded-label')).toHaveText('Partly refunded');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('payment-partly-refunded-1280.png') });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: testInfo.outputPath('payment-partly-refunded-390.png') });
  await page.goto(`${baseUrl()}/payments/${full}`);
  await expect(page.getByTestId('refunded-label')).toHaveText('Refunded');
});

test('the sign-in page offers "Forgot password?", which says to ask an owner when the service sends no mail; Settings shows the fee schedule', async ({
  page,
}, testInfo) => {
  await page.setViewportSize(LAPTOP);
  await page.goto(`${baseUrl()}/login`);
  await expect(page.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('sign-in-1280.png') });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: testInfo.outputPath('sign-in-390.png') });
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot$/);
  // The test server runs without SMTP_URL.
  await expect(page.getByTestId('forgot-ask-owner')).toContainText('ask an owner of your business');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('forgot-390.png') });

  const biz = await seedBusiness();
  const fees = await admin('PUT', `/api/admin/businesses/${biz.id}/fees`, {
    mode: 'test',
    rules: [
      { applies_to: 'bank', percent: '1.5', fixed: 200, min: 100, max: 5_000 },
      { applies_to: 'card_to_card', percent: '0', fixed: 50 },
    ],
  });
  expect(fees.status).toBe(200);
  await signIn(page, biz.emails.owner);
  await page.setViewportSize(LAPTOP);
  await page.goto(`${baseUrl()}/settings`);
  await expect(page.getByTestId('fee-bank')).toContainText('1.5% + 2.00, at least 1.00, at most 50.00');
  await expect(page.getByTestId('fee-bank')).toContainText('Sender pays (added on top) or recipient pays (taken from the amount)');
  await expect(page.getByTestId('fee-card_to_card')).toContainText('0.50');
  await expect(page.getByTestId('fee-payment')).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('settings-fees-1280.png'), fullPage: true });
});
