import { expect, test, type Page } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn, type SeededBusiness } from './dashboard-fixtures';

async function seedHistory(biz: SeededBusiness) {
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Mobile', last_name: 'Viewer' });
  const number = card.body.data.card_number as string;
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 300_000 })).status).toBe(200);
  const t = await call('POST', '/api/v1/transfers', biz.keys.test, { amount: 200_000, bank_slug: 'link', account_number: number, account_name: 'Float' });
  await call('POST', `/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, biz.keys.test, { status: 'success' });
  const failed = await call('POST', '/api/v1/card/payouts', biz.keys.test, {
    card_number: number,
    amount: 123_456,
    bank_slug: 'dashen',
    account_number: '1000123450000',
    account_name: 'Abebe Kebede',
  });
  const payoutRef = failed.body.data.provider_reference as string;
  await call('POST', `/api/v1/test-helpers/payouts/${payoutRef}/settle`, biz.keys.test, { status: 'failed' });
  const other = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Other' });
  await call('POST', '/api/v1/card/payouts', biz.keys.test, { card_number: number, destination_card_number: other.body.data.card_number, amount: 4_000 });
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, {
    type: 'hosted',
    card_number: number,
    amount: 40_000,
    merchant_reference: `order-${Date.now()}`,
  });
  const paymentRef = payment.body.data.link_reference as string;
  await call('POST', `/api/v1/test-helpers/payments/${paymentRef}/complete`, biz.keys.test, { status: 'failed' });
  return { payoutRef, paymentRef };
}

/** The element lies wholly inside the 390 px viewport: nothing of it is off to the side. */
async function expectWithinWidth(locator: ReturnType<Page['locator']>) {
  // Polled: a list refetched by the live stream may re-render the row between two reads.
  await expect
    .poll(async () => {
      const box = await locator.boundingBox();
      return box ? { left: box.x >= 0, right: box.x + box.width <= 390 } : 'not rendered';
    })
    .toEqual({ left: true, right: true });
}

test('at 390 px the payouts, payments and audit tables stack with the amount on screen, and every navigation item is reachable from the Menu button', async ({
  page,
}, testInfo) => {
  const biz = await seedBusiness();
  const { payoutRef, paymentRef } = await seedHistory(biz);
  await signIn(page, biz.emails.owner);
  await page.setViewportSize({ width: 390, height: 844 });

  // Navigation: one Menu button; opened, every item visible inside the screen, none hidden behind a sideways scroll.
  await page.goto(`${baseUrl()}/`);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Audit log', exact: true })).toBeHidden();
  await nav.getByRole('button', { name: 'Menu' }).click();
  for (const name of ['Overview', 'Cards', 'Payouts', 'Payments', 'Reports', 'Approvals', 'Developers', 'Audit log', 'Team']) {
    const link = nav.getByRole('link', { name, exact: true });
    await expect(link).toBeVisible();
    await expectWithinWidth(link);
  }
  await expect(page.getByText('Top-up from business balance').first()).toBeVisible();
  await expect(page.getByText(/\(2 cards\)/)).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('overview-nav-390px.png'), fullPage: true });
  await nav.getByRole('link', { name: 'Audit log', exact: true }).click();
  await expect(page).toHaveURL(/\/audit$/);

  // Payouts: the failed one shows its amount on screen, the bank by name and why it failed.
  await page.goto(`${baseUrl()}/payouts`);
  const payoutRow = page.getByTestId(`payout-${payoutRef}`);
  await expect(payoutRow.getByTestId('amount')).toHaveText(/^ETB\s1,234\.56$/);
  await expectWithinWidth(payoutRow.getByTestId('amount'));
  await expect(payoutRow).toContainText('Dashen Bank · 1000123450000');
  await expect(payoutRow.getByTestId('failure-reason')).toHaveText('The payment provider reported that the payout failed.');
  await expect(page.getByTestId('payouts-table')).not.toContainText(/\bdashen\b|card_to_card|minor units/);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('payouts-390px-screen.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, testInfo, 'payouts');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${baseUrl()}/payouts/${payoutRef}`);
  await expect(page.getByTestId('failure-reason')).toContainText('The payment provider reported that the payout failed.');
  await expect(page.getByTestId('destination-received')).toHaveText('Nothing');
  await expect(page.getByText('Destination gets', { exact: true })).toHaveCount(0);
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('payout-failed-390px-screen.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, testInfo, 'payout-failed');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${baseUrl()}/payments`);
  const paymentRow = page.getByTestId(`payment-${paymentRef}`);
  await expect(paymentRow.getByTestId('amount')).toHaveText(/^ETB\s400\.00$/);
  await expectWithinWidth(paymentRow.getByTestId('amount'));
  await expect(paymentRow.getByTestId('failure-reason')).toHaveText("The customer's payment did not go through at checkout.");
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('payments-390px-screen.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, testInfo, 'payments');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${baseUrl()}/payments/${paymentRef}`);
  await expect(page.getByTestId('card-credited')).toHaveText('Nothing');
  await expect(page.getByText('Card is credited', { exact: true })).toHaveCount(0);
  await expect(page.getByTestId('failure-reason')).toContainText('did not go through at checkout');
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('payment-failed-390px-screen.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, testInfo, 'payment-failed');

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${baseUrl()}/audit`);
  const sentences = page.getByTestId('audit-sentence');
  await expect(sentences.filter({ hasText: new RegExp(`Bank or wallet payout ${payoutRef} of ETB\\s1,234\\.56`) })).toContainText(
    'Dashen Bank account 1000123450000 failed',
  );
  await expect(page.getByTestId('audit-table')).not.toContainText(/payout\.|payment\.|transfer\.created|business\.credited/);
  await expectWithinWidth(sentences.first());
  await expectAccessible(page);
  await page.screenshot({ path: testInfo.outputPath('audit-390px-screen.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await screenshots(page, testInfo, 'audit');
});
