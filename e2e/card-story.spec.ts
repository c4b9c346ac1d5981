import { expect, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

const spaced = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');

test("an operator reads a card's whole story, from a national phone number to its cancellation", async ({ page, browser }, testInfo) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.operator);

  // The form takes the number as people say it; the API keeps to E.164.
  await page.goto(`${baseUrl()}/cards/new`);
  await expect(page.getByText(/read as a number in Ethiopia/)).toBeVisible();
  await page.getByLabel('Phone number').fill('0911 234 567');
  await page.getByLabel('First name').fill('Abebe');
  await page.getByRole('button', { name: 'Create card' }).click();
  await expect(page).toHaveURL(/\/cards\/\d{16}/);
  const cardNumber = page.url().match(/\/cards\/(\d{16})/)![1];
  await expect(page.getByText('+251911234567').first()).toBeVisible();
  const refused = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: '0911234567', currency: 'USD', first_name: 'Abebe' });
  expect(refused.status).toBe(400);

  // A paid link, a failed one, a pending one.
  for (const [amount, outcome] of [
    [3_000, 'success'],
    [1_500, 'failed'],
    [700, null],
  ] as const) {
    const link = await call('POST', '/api/v1/card/payments', biz.keys.test, { type: 'hosted', amount, card_number: cardNumber });
    expect(link.status).toBeLessThan(300);
    if (outcome) {
      const done = await call('POST', `/api/v1/test-helpers/payments/${link.body.data.link_reference}/complete`, biz.keys.test, { status: outcome });
      expect(done.status).toBe(200);
    }
  }

  // Disabled here with a reason, enabled again through the API.
  await page.reload();
  await page.getByRole('button', { name: 'Disable card…' }).click();
  const dialog = page.getByRole('dialog', { name: /Disable card ending/ });
  await dialog.getByLabel('Reason (optional)').fill('Customer reported the card lost');
  await expectAccessible(page);
  await dialog.getByRole('button', { name: 'Disable card' }).click();
  await expect(page.getByTestId('card-action-notice')).toHaveText('Card disabled.');
  await expect(page.getByTestId('disabled-why')).toContainText(`Disabled by ${biz.emails.operator}`);
  await expect(page.getByTestId('disabled-why')).toContainText('Reason: Customer reported the card lost');
  expect((await call('PATCH', `/api/v1/card/${cardNumber}`, biz.keys.test, { status: 'enable' })).status).toBe(200);

  await page.reload();
  await expect(page.getByTestId('card-status')).toHaveText('active');
  const story = page.getByTestId('card-story');
  const rows = story.getByTestId('timeline-entry');
  await expect(rows.nth(0)).toContainText('Enabled');
  await expect(rows.nth(0)).toContainText(`By API key ${biz.keys.test.slice(0, 12)}…`);
  await expect(rows.nth(1)).toContainText('Disabled');
  await expect(rows.nth(1)).toContainText('Reason: Customer reported the card lost');
  await expect(rows.nth(1)).toContainText(`By ${biz.emails.operator}`);
  await expect(story.locator('[data-kind="payment_finished"]')).toContainText('Payment link failed');
  await expect(story.locator('[data-kind="payment_started"]').first()).toContainText('pending');
  await expect(story.locator('[data-kind="movement"]')).toContainText(/Payment link paid.*\+ETB\s30\.00.*ETB\s30\.00/s);
  await expect(rows.last()).toContainText('Card created');
  await expect(rows).toHaveCount(8);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-story-active');

  // Cancelled: the page still opens, read-only, and says where the money went.
  await page.getByRole('button', { name: 'Cancel card…' }).click();
  await page
    .getByRole('dialog', { name: /Cancel card ending/ })
    .getByRole('button', { name: 'Cancel card for good' })
    .click();
  await expect(page).toHaveURL(/\/cards\?cancelled=/);
  expect((await call('GET', `/api/v1/card/${cardNumber}`, biz.keys.test)).status).toBe(404);
  await page.goto(`${baseUrl()}/cards/${cardNumber}`);
  await expect(page.getByRole('heading', { name: `Card ${spaced(cardNumber)}` })).toBeVisible();
  await expect(page.getByTestId('card-status')).toHaveText('cancelled');
  await expect(page.getByTestId('cancelled-banner')).toContainText(`by ${biz.emails.operator}`);
  await expect(page.getByTestId('cancelled-banner')).toContainText(/remaining balance of ETB\s30\.00 moved to your business’s ETB account/);
  await expect(page.getByRole('heading', { name: 'Manage' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Top up' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Send payout' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Disable card|Enable card|Cancel card/ })).toHaveCount(0);
  await expect(rows.nth(0)).toContainText('Card cancelled');
  await expect(rows.nth(0)).toContainText(/ETB\s30\.00 moved to the business's ETB account/);
  await expect(rows.nth(1)).toContainText(/−ETB\s30\.00/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-story-cancelled');

  // Another business's card stays not found, cancelled or not.
  const stranger = await seedBusiness();
  const strangerPage = await (await browser.newContext()).newPage();
  await signIn(strangerPage, stranger.emails.operator);
  await strangerPage.goto(`${baseUrl()}/cards/${cardNumber}`);
  await expect(strangerPage.getByText('Gift card not found')).toBeVisible();
  await strangerPage.context().close();
});

test('support sees why the provider disabled a card instead of an Enable button, and disables another with a reason', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const mk = async () => {
    const res = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Sara', last_name: 'Tesfaye' });
    expect(res.status).toBe(201);
    return res.body.data.card_number as string;
  };
  const [held, lost] = [await mk(), await mk()];
  expect((await admin('POST', `/api/admin/cards/${held}/disable`)).status).toBe(200);

  await signIn(page, biz.emails.support);
  await page.goto(`${baseUrl()}/cards/${held}`);
  await expect(page.getByTestId('card-status')).toHaveText('disabled');
  await expect(page.getByTestId('disabled-why')).toContainText('The provider disabled this card');
  await expect(page.getByTestId('disabled-why')).toContainText('Only the provider can enable it again');
  await expect(page.getByRole('button', { name: /Enable card/ })).toHaveCount(0);
  await expect(page.getByTestId('timeline-entry').first()).toContainText('Disabled by the provider');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-story-provider-disabled');

  await page.goto(`${baseUrl()}/cards/${lost}`);
  await expect(page.getByRole('button', { name: /Cancel card/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Disable card…' }).click();
  const dialog = page.getByRole('dialog', { name: /Disable card ending/ });
  await dialog.getByLabel('Reason (optional)').fill('Holder asked by phone');
  await dialog.getByRole('button', { name: 'Disable card' }).click();
  await expect(page.getByTestId('card-action-notice')).toHaveText('Card disabled.');
  await expect(page.getByTestId('timeline-entry').first()).toContainText(`By ${biz.emails.support}`);
  await expect(page.getByTestId('timeline-entry').first()).toContainText('Reason: Holder asked by phone');
  await page.getByRole('button', { name: 'Enable card' }).click();
  await expect(page.getByTestId('card-status')).toHaveText('active');
  expect((await call('GET', `/api/v1/card/${lost}`, biz.keys.test)).body.data.status).toBe(1);
});
