import { expect, type Page, test } from '@playwright/test';
import { generate } from 'otplib';
import { admin, baseUrl, expectAccessible, PASSWORD, screenshots, seedBusiness, signInWithForm } from './dashboard-fixtures';

/** The code of the 30-second step `steps` from now: the set-up spends the current step, so sign-in takes the next. */
const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Content-Security-Policy refusals the page reports, so a page that silently lost its QR code or scripts fails. */
function cspErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}

// Each story is a test of its own with its own business: as one test of some hundred steps it ran past the 60 s
// test timeout on a loaded machine, though nothing in it waits on a clock.

/** A business, its owner signed in on the team page. */
async function ownerOnTeamPage(page: Page) {
  const biz = await seedBusiness();
  await signInWithForm(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/team`);
  await expect(page.getByText('Email is not set up on this server')).toBeVisible();
  return biz;
}

test('owner invites a teammate who joins through the link', async ({ page, browser }, testInfo) => {
  const biz = await ownerOnTeamPage(page);

  const email = `joiner-${biz.id}@example.com`;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('finance');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const link = await page.getByTestId('invite-link').inputValue();
  await expect(page.getByTestId('invite-link-mail')).toContainText('pass the link on yourself');
  await page.getByRole('button', { name: 'Copy' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  await expect(page.getByTestId('pending-invitation').filter({ hasText: email })).toContainText('finance');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'team-invited');

  // An invitation to someone who already has an account is refused on the field.
  await page.getByLabel('Email').fill(biz.emails.support);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.locator('#invite-email-error')).toContainText('already has an account');

  const fresh = await browser.newContext();
  const invitee = await fresh.newPage();
  const csp = cspErrors(invitee);
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: `Join ${biz.name}` })).toBeVisible();
  await expect(invitee.getByTestId('invitation-summary')).toContainText('finance');
  await expectAccessible(invitee);
  await screenshots(invitee, testInfo, 'invite');
  await invitee.getByLabel('Choose a password').fill('short');
  await invitee.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(invitee.locator('#new-password-error')).toContainText('at least 10 characters');
  await invitee.getByLabel('Choose a password').fill('my-own-password-1');
  await invitee.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(invitee.getByTestId('role')).toHaveText('finance');
  // Once used, the link says so.
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'This invitation link does not work' })).toBeVisible();
  expect(csp).toEqual([]);
  // And the new account signs in with the password its owner chose.
  await invitee.context().clearCookies();
  await signInWithForm(invitee, email, 'my-own-password-1');
  await expect(invitee.getByTestId('role')).toHaveText('finance');
  await fresh.close();

  await page.goto(`${baseUrl()}/audit?action=user`);
  await expect(page.getByTestId('audit-row').filter({ hasText: 'accepted the invitation and joined the team as finance' })).toHaveCount(1);
});

test('a revoked invitation link no longer works', async ({ page, browser }) => {
  const biz = await ownerOnTeamPage(page);
  await page.getByLabel('Email').fill(`revoked-${biz.id}@example.com`);
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const revokedLink = await page.getByTestId('invite-link').inputValue();
  await page.getByRole('button', { name: `Revoke the invitation of revoked-${biz.id}@example.com` }).click();
  await expect(page.getByTestId('pending-invitation')).toHaveCount(0);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await otherPage.goto(revokedLink);
  await expect(otherPage.getByRole('heading', { name: 'This invitation link does not work' })).toBeVisible();
  await other.close();
  await page.goto(`${baseUrl()}/audit?action=user`);
  await expect(page.getByTestId('audit-row').filter({ hasText: `Revoked the invitation of revoked-${biz.id}@example.com` })).toHaveCount(1);
});

test('a reset link sets a new password once', async ({ page, browser }, testInfo) => {
  const biz = await ownerOnTeamPage(page);
  await page.getByRole('button', { name: `Make a password reset link for ${biz.emails.support}` }).click();
  const resetLink = await page.getByTestId('reset-link').inputValue();
  expect(resetLink).toMatch(/\/reset\/[0-9A-Za-z]{43}$/);
  await screenshots(page, testInfo, 'team-reset-link');
  const resetContext = await browser.newContext();
  const resetPage = await resetContext.newPage();
  await resetPage.goto(resetLink);
  await expect(resetPage.getByTestId('reset-summary')).toContainText(biz.emails.support);
  await expectAccessible(resetPage);
  await screenshots(resetPage, testInfo, 'reset');
  await resetPage.getByLabel('New password').fill('support-new-pass-1');
  await resetPage.getByRole('button', { name: 'Save and sign in' }).click();
  await expect(resetPage.getByTestId('role')).toHaveText('support');
  await resetPage.context().clearCookies();
  await resetPage.goto(`${baseUrl()}/login`);
  await resetPage.getByLabel('Email').fill(biz.emails.support);
  await resetPage.getByLabel('Password').fill(PASSWORD);
  await resetPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(resetPage.getByRole('alert').filter({ hasText: 'Wrong email or password.' })).toBeVisible();
  await resetPage.goto(resetLink);
  await expect(resetPage.getByRole('heading', { name: 'This reset link does not work' })).toBeVisible();
  await resetContext.close();

  await page.goto(`${baseUrl()}/audit?action=user`);
  await expect(page.getByTestId('audit-row').filter({ hasText: 'chose a new password through a reset link' })).toHaveCount(1);
});

test('changing one’s own password ends every session, this one too, and the page says so', async ({ page }) => {
  const biz = await seedBusiness();
  await signInWithForm(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/account`);
  await page.getByLabel('Current password').fill(PASSWORD);
  await page.getByLabel('New password').fill('owner-new-pass-1');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page).toHaveURL(/\/login\?done=password$/);
  await expect(page.getByText('Your password is changed and you were signed out everywhere')).toBeVisible();
  await expectAccessible(page);
  await page.goto(`${baseUrl()}/cards`);
  await expect(page).toHaveURL(/\/login/);
  await signInWithForm(page, biz.emails.owner, 'owner-new-pass-1');
});

test('owner turns on two-factor sign-in, signs in with a code, then requires it; another user is sent to set it up', async ({ page, browser }, testInfo) => {
  // One story (requiring it needs an owner who has it) of about a hundred steps, four sign-ins and ten accessibility
  // scans: 41 s at a load of 10 on two cores. The budget is for the steps; no step waits on a clock.
  test.setTimeout(180_000);
  const biz = await seedBusiness();
  const csp = cspErrors(page);
  await signInWithForm(page, biz.emails.owner);
  await page.getByRole('link', { name: 'Account' }).click();
  await expect(page.getByTestId('two-factor-status')).toContainText('Off.');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'account-off');
  await page.getByRole('link', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page).toHaveURL(/\/account\/two-factor$/);
  const qr = page.getByRole('img', { name: /QR code/ });
  await expect(qr).toBeVisible();
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  const secret = (await page.getByTestId('manual-key').getAttribute('data-key'))!;
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'two-factor-setup');
  await page.getByLabel('Code from the app').fill('000000');
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.locator('#setup-code-error')).toContainText('not right');
  await page.getByLabel('Code from the app').fill(await codeAt(secret));
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await screenshots(page, testInfo, 'two-factor-recovery-codes');
  expect(csp).toEqual([]);

  // Turning it on ended the session: sign in again. The password alone leads to the code step, and no session exists before it.
  await page.getByRole('link', { name: 'I have saved them: sign in again' }).click();
  await expect(page).toHaveURL(/\/login\?done=two-factor-on$/);
  await expect(page.getByText('Two-factor sign-in is on and you were signed out everywhere')).toBeVisible();
  await page.getByLabel('Email').fill(biz.emails.owner);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Code', { exact: true })).toBeVisible();
  await page.goto(`${baseUrl()}/cards`);
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Email').fill(biz.emails.owner);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Code', { exact: true }).fill('000000');
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'That code did not work' })).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'login-code-step');
  await page.getByLabel('Code', { exact: true }).fill(await codeAt(secret, 1));
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByTestId('role')).toHaveText('owner');
  await page.goto(`${baseUrl()}/account`);
  await expect(page.getByTestId('two-factor-status')).toContainText('On since');
  await expect(page.getByTestId('two-factor-status')).toContainText('10 recovery codes are left');

  // Require it for the business.
  await page.goto(`${baseUrl()}/team`);
  await expect(page.getByTestId('team-member').filter({ hasText: '(you)' }).getByTestId('two-factor-state')).toHaveText('two-factor on');
  await page.getByTestId('require-two-factor').check();
  await page.getByRole('button', { name: 'Save requirement' }).click();
  await expect(page.getByTestId('two-factor-requirement-notice')).toContainText('Required');
  await screenshots(page, testInfo, 'team-two-factor-required');

  const other = await browser.newContext();
  const operator = await other.newPage();
  await signInWithForm(operator, biz.emails.operator);
  await expect(operator).toHaveURL(/\/account\/two-factor$/);
  await expect(operator.getByTestId('two-factor-required-notice')).toBeVisible();
  for (const path of ['/', '/cards', '/payouts', '/account']) {
    await operator.goto(`${baseUrl()}${path}`);
    await expect(operator, path).toHaveURL(/\/account\/two-factor$/);
  }
  await expectAccessible(operator);
  await screenshots(operator, testInfo, 'two-factor-required-setup');
  const operatorKey = (await operator.getByTestId('manual-key').getAttribute('data-key'))!;
  await operator.getByLabel('Code from the app').fill(await codeAt(operatorKey));
  await operator.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
  await expect(operator.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await operator.getByRole('link', { name: 'I have saved them: sign in again' }).click();
  await expect(operator).toHaveURL(/\/login\?done=two-factor-on$/);
  await operator.getByLabel('Email').fill(biz.emails.operator);
  await operator.getByLabel('Password').fill(PASSWORD);
  await operator.getByRole('button', { name: 'Sign in' }).click();
  await operator.getByLabel('Code', { exact: true }).fill(await codeAt(operatorKey, 1));
  await operator.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(operator.getByTestId('role')).toHaveText('operator');
  await operator.goto(`${baseUrl()}/account`);
  await expect(operator.getByTestId('two-factor-status')).toContainText('On since');
  await expect(operator.getByText('Your business requires it, so it cannot be turned off.')).toBeVisible();
  await operator.goto(`${baseUrl()}/cards`);
  await expect(operator).toHaveURL(/\/cards$/);
  await other.close();

  await page.goto(`${baseUrl()}/audit?action=user`);
  await expect(page.getByTestId('audit-row').filter({ hasText: 'turned on two-factor sign-in' })).toHaveCount(2);
  await page.goto(`${baseUrl()}/audit?action=business`);
  await expect(page.getByTestId('audit-row').filter({ hasText: 'Required two-factor sign-in for everyone' })).toHaveCount(1);
  // Seeded through the back office, with no second factor of its own: unaffected by the requirement.
  expect((await admin('GET', `/api/admin/businesses/${biz.id}/users`)).status).toBeLessThan(500);
});
