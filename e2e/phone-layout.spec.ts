import { expect, type Page, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, fundedCard, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** How far the page scrolls sideways, in px. */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('at 390 px the overview shows every figure of payouts by type, and a long key name does not widen the Developers page', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  // Wide figures, as a busy business has them: a settled bank payout of millions with a fee.
  expect((await admin('PUT', `/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [{ applies_to: 'bank', percent: '1.5', fixed: 0 }] })).status).toBe(
    200,
  );
  const card = await fundedCard(biz, 900_000_000);
  const payout = await call('POST', '/api/v1/card/payouts', biz.keys.test, {
    card_number: card,
    amount: 123_456_789,
    bank_slug: 'cbe',
    account_number: '1000123456123',
    account_name: 'Supplier',
  });
  expect(payout.status, JSON.stringify(payout.body)).toBeLessThan(300);
  const settled = await call('POST', `/api/v1/test-helpers/payouts/${payout.body.data.provider_reference}/settle`, biz.keys.test, { status: 'success' });
  expect(settled.status).toBe(200);
  await signIn(page, biz.emails.owner);

  await page.setViewportSize(PHONE);
  await page.goto(`${baseUrl()}/`);
  const table = page.getByTestId('payouts-by-type').first();
  await expect(table).toBeVisible();
  // Every figure lies inside the box that holds the table, none behind a sideways scroll of it.
  const outside = await table.evaluate((t) => {
    const box = t.parentElement!.getBoundingClientRect();
    return [...t.querySelectorAll('td')].filter((td) => td.getBoundingClientRect().right > box.right + 0.5 || td.getBoundingClientRect().left < box.left)
      .length;
  });
  expect(outside).toBe(0);
  // and no two figures of a type run into each other.
  const overlaps = await table.evaluate(
    (t) =>
      [...t.querySelectorAll('tbody tr')].filter((row) => {
        // The text's own extent: a figure wider than its cell spills over without the cell growing.
        const cells = [...row.querySelectorAll('td')].map((td) => {
          const text = document.createRange();
          text.selectNodeContents(td);
          return text.getBoundingClientRect();
        });
        return cells.some((a, i) => cells.slice(i + 1).some((b) => a.top < b.bottom && b.top < a.bottom && a.left < b.right && b.left < a.right));
      }).length,
  );
  expect(overlaps).toBe(0);
  await expect(table.getByText('Fees').first()).toBeVisible();
  expect(await sideways(page)).toBeLessThanOrEqual(1);
  await expectAccessible(page);
  await page.setViewportSize(DESKTOP);
  await screenshots(page, testInfo, 'overview');

  await page.goto(`${baseUrl()}/developers`);
  const longName = 'x'.repeat(60);
  await page.getByLabel('Name of the new key').fill(longName);
  await page.getByRole('button', { name: 'Create test API key' }).click();
  await expect(page.getByTestId('key-name').filter({ hasText: longName })).toBeVisible();
  await page.setViewportSize(PHONE);
  expect(await sideways(page), 'the Developers page scrolls sideways at 390 px').toBeLessThanOrEqual(1);
  await page.setViewportSize(DESKTOP);
  await screenshots(page, testInfo, 'developers-long-key-name');
});

test('at 390 px the payouts and payments filters fold away so the list starts on the first screen; set ones stay open', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const card = await fundedCard(biz, 50_000);
  const link = await call('POST', '/api/v1/card/payments', biz.keys.test, {
    type: 'hosted',
    amount: 1_500,
    card_number: card,
    merchant_reference: `ORD-${Date.now()}`,
  });
  expect(link.status).toBeLessThan(300);
  await signIn(page, biz.emails.owner);
  for (const path of ['/payouts', '/payments'] as const) {
    await page.setViewportSize(PHONE);
    await page.goto(`${baseUrl()}${path}`);
    const firstRow = page.locator(`[data-testid="${path.slice(1)}-table"] tbody tr`).first();
    await expect(firstRow).toBeVisible();
    const top = await firstRow.evaluate((r) => r.getBoundingClientRect().top);
    expect(top, `${path}: the first row starts ${top} px down`).toBeLessThan(PHONE.height);
    await expect(page.getByLabel('Status')).toBeHidden();
    await page.getByText('Filters and order').click();
    await expect(page.getByLabel('Status')).toBeVisible();
    await expectAccessible(page);

    // A filter that is set is shown, not folded away.
    await page.goto(`${baseUrl()}${path}?status=success`);
    await expect(page.getByLabel('Status')).toBeVisible();
    await expect(page.getByText('Filters and order (1 set)')).toBeVisible();

    // Wide screens show them all, as before.
    await page.setViewportSize(DESKTOP);
    await page.goto(`${baseUrl()}${path}`);
    await expect(page.getByLabel('Status')).toBeVisible();
    await expect(page.getByText('Filters and order')).toBeHidden();
    await screenshots(page, testInfo, `list${path.replace('/', '-')}`);
  }
});
