import { expect, test } from '@playwright/test';
import { generate } from 'otplib';
import { baseUrl, call, expectAccessible, PASSWORD, screenshots, seedBusiness, signInWithForm } from './dashboard-fixtures';

test('forms speak in their own words, and change password names every problem at once', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  expect((await call('POST', '/api/v1/card', biz.keys.test, { phone_number: '+251911000111', currency: 'ETB', first_name: 'Abebe' })).status).toBe(201);
  await signInWithForm(page, biz.emails.owner);

  // A count of test cards must not read as live mode.
  await page.goto(`${baseUrl()}/cards`);
  await expect(page.getByText('1 active or disabled card.', { exact: false })).toBeVisible();
  await expect(page.getByText(/live cards/)).toHaveCount(0);

  await page.goto(`${baseUrl()}/team`);
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.locator('#invite-email-error')).toHaveText('Enter an email address, like name@example.com.');
  await screenshots(page, testInfo, 'team-invite-email');

  await page.goto(`${baseUrl()}/developers`);
  await page.getByLabel('Endpoint URL').fill('example.com/hooks');
  await page.getByRole('button', { name: 'Set URL' }).click();
  await expect(page.locator('#webhook-url-error')).toHaveText('Enter the full address, starting with https://, like https://example.com/webhooks.');
  await screenshots(page, testInfo, 'developers-webhook-url');

  await page.goto(`${baseUrl()}/account`);
  await page.getByLabel('Current password').fill('not-my-password');
  await page.getByLabel('New password').fill('short');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.locator('#current-password-error')).toHaveText('This is not your current password.');
  await expect(page.locator('#account-new-password-error')).toHaveText('Use at least 10 characters for the password.');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'account-change-password');
});

test('the code that turned two-factor on, typed again at the sign-in that follows, is explained rather than called wrong', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  await signInWithForm(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/account/two-factor`);
  const secret = (await page.getByTestId('manual-key').getAttribute('data-key'))!;
  const setupCode = await generate({ secret });
  await page.getByLabel('Code from the app').fill(setupCode);
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByTestId('two-factor-on')).toContainText('The code you just typed works only once');
  await screenshots(page, testInfo, 'two-factor-recovery-codes');

  await page.getByRole('link', { name: 'I have saved them: sign in again' }).click();
  await page.getByLabel('Email').fill(biz.emails.owner);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Code', { exact: true }).fill(setupCode);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That code was already used' })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'login-code-already-used');
});
