import { expect, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

test('support reads a card’s messages and resends its link; the owner turns a kind off with its preview in Settings', async ({ page }, testInfo) => {
  test.setTimeout(150_000);
  const biz = await seedBusiness(`Kaldi coffee ${Date.now()}`);
  const holderPhone = randomPhone();
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: holderPhone, currency: 'ETB', first_name: 'Abebe', notify: true });
  expect(card.status).toBe(201);
  const number = card.body.data.card_number as string;
  // Its text is written by the message's job, after the card's commit: read the page once it has been.
  await expect
    .poll(async () => (await call('GET', `/api/v1/card/${number}/messages`, biz.keys.test)).body.data.items.map((m: { status: string }) => m.status), {
      timeout: 30_000,
    })
    .toEqual(['not_sent_test_mode']);

  await signIn(page, biz.emails.support);
  await page.goto(`${baseUrl()}/cards/${number}`);
  const list = page.getByTestId('card-messages');
  await expect(list.locator('li')).toHaveCount(1);
  await expect(list).toContainText(`you have a gift card ending ${number.slice(-4)}`);
  await expect(list).toContainText('Not sent (test mode)');
  await page.getByRole('button', { name: 'Resend link by SMS' }).click();
  await expect(page.getByTestId('resend-link-notice')).toContainText('A new link is on its way');
  await expect(list.locator('li')).toHaveCount(2);
  await expect(list.locator('li').first()).toContainText('the new link to your gift card');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-messages');

  // The Messages page: filtered by kind, searched by the holder's phone.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Messages' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Messages to cardholders');
  await page.getByLabel('Kind').selectOption('new_link');
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page.getByTestId('messages-list').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('messages-count')).toHaveText('1 message');
  await page.goto(`${baseUrl()}/messages?phone=${encodeURIComponent(holderPhone.slice(-6))}`);
  await expect(page.getByTestId('messages-list').locator('li')).toHaveCount(2);
  await page.goto(`${baseUrl()}/messages?status=failed`);
  await expect(page.getByText('No message matches these filters.')).toBeVisible();
  await page.goto(`${baseUrl()}/messages`);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'messages-page');

  await page.context().clearCookies();
  expect((await admin('PUT', `/api/admin/businesses/${biz.id}/locale`, { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(200);
  await signIn(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/settings`);
  const form = page.getByRole('form', { name: 'Messages to cardholders' });
  await expect(form.getByTestId('message-preview-money_added')).toContainText('ብር 250.00 ወደ ስጦታ ካርድዎ (…1138) ገብቷል');
  await expect(form).toContainText('2 SMS parts');
  await form.getByRole('checkbox', { name: 'Money spent' }).uncheck();
  await form.getByRole('button', { name: 'Save messages' }).click();
  await expect(page.getByTestId('message-kinds-notice')).toContainText('Saved');
  await page.reload();
  await expect(page.getByRole('form', { name: 'Messages to cardholders' }).getByRole('checkbox', { name: 'Money spent' })).not.toBeChecked();
  await screenshots(page, testInfo, 'settings-message-kinds');
});
