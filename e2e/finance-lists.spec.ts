import { expect, test, type Page } from '@playwright/test';
import { formatMoney } from '../components/ui/money';
import { admin, baseUrl, call, expectAccessible, fundedCard, openListening, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

const amounts = async (page: Page) =>
  (await page.getByTestId('payouts-table').locator('tbody tr').getByTestId('amount').allTextContents()).map((t) => Number(t.replace(/[^\d.]/g, '')));

test('finance sees the count and totals of a filter, sorts by amount and picks a page size, all kept in the URL', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  expect(
    (
      await admin('PUT', `/api/admin/businesses/${biz.id}/fees`, {
        mode: 'test',
        rules: [
          { applies_to: 'card_to_card', percent: '1', fixed: 10 },
          { applies_to: 'payment', percent: '1.5', fixed: 0 },
        ],
      })
    ).status,
  ).toBe(200);
  const [source, destination] = [await fundedCard(biz, 5_000_000), await fundedCard(biz, 1_000)];
  await fundedCard(biz, 30_000, 'USD');

  // 30 card-to-card payouts, the fee paid by the sender (added to what leaves the card) or by the receiver (taken off what arrives).
  const sent: { amount: number; fee: number; net: number }[] = [];
  for (let i = 0; i < 30; i++) {
    const amount = 1_000 + ((i * 7_919) % 50_000);
    const payer = i % 3 === 0 ? 'receiver' : 'sender';
    const res = await call('POST', '/api/v1/card/payouts', biz.keys.test, {
      card_number: source,
      destination_card_number: destination,
      amount,
      charge_payer: payer,
    });
    expect(res.status).toBe(200);
    const fee = res.body.data.service_fee as number;
    sent.push({ amount, fee, net: payer === 'sender' ? amount + fee : amount });
  }
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, { type: 'hosted', amount: 12_345, card_number: destination });
  expect(payment.status).toBe(201);
  await call('POST', `/api/v1/test-helpers/payments/${payment.body.data.link_reference}/complete`, biz.keys.test, { status: 'success' });

  await signIn(page, biz.emails.finance);
  await page.goto(`${baseUrl()}/payouts`);
  // Unfiltered: 30 card payouts and three top-ups (one of them in USD).
  await expect(page.getByTestId('list-totals').getByTestId('totals-count').first()).toHaveText('33 payouts');
  await expect(page.getByTestId('totals-USD')).toContainText('1 payout in USD');
  await expect(page.getByTestId('payouts-table').locator('tbody tr')).toHaveCount(25);

  // A filter: the totals are those of the 30 card-to-card payouts, not of the 25 on the page.
  await page.getByLabel('Type').selectOption('card_to_card');
  await page.getByLabel('Sort by').selectOption('largest');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/type=card_to_card/);
  await expect(page).toHaveURL(/sort=largest/);
  const sum = (k: 'amount' | 'fee' | 'net') => sent.reduce((s, p) => s + p[k], 0);
  const totals = page.getByTestId('totals-ETB');
  await expect(totals.getByTestId('totals-count')).toHaveText('30 payouts');
  await expect(totals.getByTestId('totals-amount')).toHaveText(`${formatMoney(sum('amount'), 'ETB')} amount`);
  await expect(totals.getByTestId('totals-fee')).toHaveText(`${formatMoney(sum('fee'), 'ETB')} fees`);
  await expect(totals.getByTestId('totals-net')).toHaveText(`${formatMoney(sum('net'), 'ETB')} net`);
  await expect(page.getByTestId('list-totals')).toContainText('Net is what left your cards');
  await expect(page.getByTestId('totals-USD')).toHaveCount(0);

  // Largest first, 25 to a page; the next page carries on below the smallest shown.
  const byAmount = [...sent].map((p) => p.amount).sort((a, b) => b - a);
  await expect.poll(() => amounts(page)).toEqual(byAmount.slice(0, 25).map((a) => a / 100));
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payouts-largest');
  await page.getByRole('link', { name: 'Smaller →' }).click();
  await expect(page).toHaveURL(/after=/);
  await expect(page).toHaveURL(/sort=largest/);
  await expect.poll(() => amounts(page)).toEqual(byAmount.slice(25).map((a) => a / 100));
  await expect(totals.getByTestId('totals-count')).toHaveText('30 payouts');
  await page.getByRole('link', { name: '← Larger' }).click();
  await expect(page).toHaveURL(/before=/);
  await expect.poll(() => amounts(page)).toEqual(byAmount.slice(0, 25).map((a) => a / 100));

  // Smallest first, 50 to a page: all 30 on one page, no pager.
  await page.getByLabel('Sort by').selectOption('smallest');
  await page.getByLabel('Per page').selectOption('50');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page).toHaveURL(/size=50/);
  await expect(page).toHaveURL(/type=card_to_card/);
  await expect(page.getByTestId('payouts-table').locator('tbody tr')).toHaveCount(30);
  await expect.poll(() => amounts(page)).toEqual([...byAmount].reverse().map((a) => a / 100));
  await expect(page.getByRole('navigation', { name: 'Pages' })).toHaveCount(0);
  await expect(page.getByText('Money sent from your cards in test mode, smallest amount first.')).toBeVisible();

  // A page size or sort nobody offers falls back to the defaults instead of failing.
  await page.goto(`${baseUrl()}/payouts?sort=cheapest&size=5000`);
  await expect(page.getByTestId('payouts-table').locator('tbody tr')).toHaveCount(25);
  await expect(page.getByLabel('Sort by')).toHaveValue('newest');

  // Payments: totals, the net hint, and an export link that keeps the filters.
  await page.goto(`${baseUrl()}/payments?status=success`);
  const paid = page.getByTestId('totals-ETB');
  await expect(paid.getByTestId('totals-count')).toHaveText('1 payment');
  await expect(paid.getByTestId('totals-amount')).toHaveText(`${formatMoney(12_345, 'ETB')} amount`);
  await expect(paid.getByTestId('totals-net')).toHaveText(`${formatMoney(12_345, 'ETB')} net`);
  await expect(page.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/payments/export?status=success');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payments-totals');
});

test('the totals on an open payouts list move when a payout arrives, without a reload', async ({ page }) => {
  const biz = await seedBusiness();
  const source = await fundedCard(biz, 100_000);
  await signIn(page, biz.emails.operator);
  await openListening(page, '/payouts?type=bank');
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await expect(page.getByText('No payouts match these filters')).toBeVisible();
  for (const [i, amount] of [4_000, 6_000].entries()) {
    const res = await call('POST', '/api/v1/card/payouts', biz.keys.test, {
      card_number: source,
      amount,
      bank_slug: 'cbe',
      account_number: `100012345100${i}`,
      account_name: 'Live',
    });
    expect(res.status).toBe(200);
    await expect(page.getByTestId('totals-ETB').getByTestId('totals-count')).toHaveText(i === 0 ? '1 payout' : '2 payouts', { timeout: 30_000 });
  }
  await expect(page.getByTestId('totals-ETB').getByTestId('totals-amount')).toHaveText(`${formatMoney(10_000, 'ETB')} amount`);
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});
