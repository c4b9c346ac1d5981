import { expect, test } from '@playwright/test';
import { baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn, signInWithForm } from './dashboard-fixtures';

test('an operator creates a card, tops it up through the checkout page, sees the balance and the movement, then cancels it', async ({
  page,
  context,
}, testInfo) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.operator);
  await page.goto(`${baseUrl()}/cards`);
  await expect(page.getByRole('heading', { name: 'Cards' })).toBeVisible();
  await expect(page.getByText('No cards yet')).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'cards-empty');

  await page.getByRole('link', { name: 'New card' }).click();
  await expect(page.getByRole('heading', { name: 'New card' })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-new');
  // The zod schema runs in the browser before anything is sent.
  await page.getByRole('button', { name: 'Create card' }).click();
  await expect(page.getByText('Enter the holder’s phone number.')).toBeVisible();
  const phone = randomPhone();
  await page.getByLabel('Phone number').fill(phone);
  await page.getByRole('button', { name: 'Create card' }).click();
  // A new phone number needs a name: the server's answer lands on that field.
  await expect(page.getByText('This phone number is new to us')).toBeVisible();
  await page.getByLabel('First name').fill('Abebe');
  await page.getByLabel('Last name (optional)').fill('Kebede');
  await page.getByLabel('Currency').selectOption('ETB');
  await page.getByRole('button', { name: 'Create card' }).click();
  await expect(page).toHaveURL(/\/cards\/\d{16}/);
  const cardNumber = page.url().match(/\/cards\/(\d{16})/)![1];
  await expect(page.getByTestId('holder-name')).toHaveText('Abebe Kebede');
  await expect(page.getByTestId('card-balance')).toHaveText(/ETB\s0\.00/);
  await expect(page.getByRole('link', { name: 'Send payout' })).toHaveAttribute('href', `/payouts/new?card=${cardNumber}`);

  await page.getByLabel('Amount (ETB)').fill('25');
  await page.getByRole('button', { name: 'Create payment link' }).click();
  const linkBox = page.getByTestId('payment-link');
  await expect(linkBox).toBeVisible();
  const checkoutUrl = await page.getByLabel('Checkout link').inputValue();
  expect(checkoutUrl).toMatch(/\/checkout\/\S+$/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-detail-operator');

  const checkout = await context.newPage();
  await checkout.goto(checkoutUrl);
  await checkout.getByRole('button', { name: /^Pay / }).click();
  await expect(checkout.getByText(/success|paid|complete/i).first()).toBeVisible();
  await checkout.close();

  // The payment's webhook reaches the dashboard and the open card page refreshes by itself.
  await expect(page.getByTestId('card-balance')).toHaveText(/ETB\s25\.00/, { timeout: 15_000 });
  const entry = page.getByTestId('timeline-entry').first();
  await expect(entry).toContainText('Payment link paid');
  await expect(entry).toContainText(/\+ETB\s25\.00/);
  await expect(entry.locator('td').last()).toHaveText(/ETB\s25\.00/);
  await screenshots(page, testInfo, 'card-detail-with-movement');

  await page.getByRole('button', { name: 'Cancel card…' }).click();
  const dialog = page.getByRole('dialog', { name: /Cancel card ending/ });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('cancel-balance-destination')).toHaveText(/remaining balance of ETB\s25\.00 moves to your business’s ETB account/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-cancel-dialog');
  await dialog.getByRole('button', { name: 'Cancel card for good' }).click();
  await expect(page).toHaveURL(/\/cards\?cancelled=/);
  await expect(page.getByTestId('cancel-notice')).toHaveText(/ETB\s25\.00 moved to your business’s ETB account/);
  const card = await call('GET', `/api/v1/card/${cardNumber}`, biz.keys.test);
  expect(card.status).toBe(404);
});

test('a support agent finds a card by phone, disables and enables it, and gets no money controls', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const phone = randomPhone();
  const created = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: phone, currency: 'ETB', first_name: 'Sara', last_name: 'Tesfaye' });
  expect(created.status).toBe(201);
  const cardNumber = created.body.data.card_number as string;
  await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Other', last_name: 'Holder' });

  await signInWithForm(page, biz.emails.support);
  await expect(page).toHaveURL(/\/cards/);
  await expect(page.getByTestId('cards-table').getByRole('row')).toHaveCount(3);
  await expect(page.getByRole('link', { name: 'New card' })).toHaveCount(0);
  // The national number with its trunk 0, as a customer reads it out on the phone.
  await page.getByLabel('Card number, last four digits, phone or holder name').fill(`0${phone.slice(4)}`);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/q=0\d+/);
  const rows = page.getByTestId('cards-table').getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('Sara Tesfaye');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'cards-search');

  await page.getByRole('link', { name: cardNumber.replace(/(\d{4})(?=\d)/g, '$1 ') }).click();
  await expect(page.getByTestId('holder-name')).toHaveText('Sara Tesfaye');
  await expect(page.getByRole('heading', { name: 'Top up' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Send payout' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Cancel card/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Create payment link|Top up/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Disable card…' }).click();
  await page
    .getByRole('dialog', { name: /Disable card ending/ })
    .getByRole('button', { name: 'Disable card' })
    .click();
  await expect(page.getByTestId('card-action-notice')).toHaveText('Card disabled.');
  await expect(page.getByTestId('card-status')).toHaveText('disabled');
  expect((await call('GET', `/api/v1/card/${cardNumber}`, biz.keys.test)).body.data.status).toBe(3);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-detail-support');

  await page.goto(`${baseUrl()}/cards?status=disabled`);
  await expect(page.getByTestId('cards-table').getByRole('row')).toHaveCount(2);
  await page.goto(`${baseUrl()}/cards/${cardNumber}`);
  await page.getByRole('button', { name: 'Enable card' }).click();
  await expect(page.getByTestId('card-status')).toHaveText('active');
  expect((await call('GET', `/api/v1/card/${cardNumber}`, biz.keys.test)).body.data.status).toBe(1);

  await page.goto(`${baseUrl()}/cards/4000000000000002`);
  await expect(page.getByText('Gift card not found')).toBeVisible();
});
