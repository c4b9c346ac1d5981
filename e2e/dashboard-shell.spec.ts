import { expect, test } from '@playwright/test';
import { baseUrl, expectAccessible, screenshots, seedBusiness, signInWithForm } from './dashboard-fixtures';

test('signed-out visits go to sign-in; wrong passwords are refused', async ({ page }) => {
  await page.goto(`${baseUrl()}/cards`);
  await expect(page).toHaveURL(/\/login/);
  await page.getByLabel('Email').fill('nobody@example.com');
  await page.getByLabel('Password').fill('wrong-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Next's route announcer is also an (empty) alert region, so pick ours by its text.
  await expect(page.getByRole('alert').filter({ hasText: /Wrong email or password/ })).toBeVisible();
  await expectAccessible(page);
});

test('owner signs in, sees the test banner, switches to live and signs out', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  await signInWithForm(page, biz.emails.owner);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByTestId('test-mode-banner')).toBeVisible();
  await expect(page.getByText(biz.name)).toBeVisible();
  await expectAccessible(page);
  await screenshots(page, testInfo, 'overview');
  await page.getByTestId('mode-live').click();
  await expect(page.getByTestId('test-mode-banner')).toHaveCount(0);
  await expect(page.getByText('Balances now, and the money that moved in the period you choose, in live mode.')).toBeVisible();
  await page.getByTestId('mode-test').click();
  await expect(page.getByTestId('test-mode-banner')).toBeVisible();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`${baseUrl()}/`);
  await expect(page).toHaveURL(/\/login/);
});

test('navigation shows each role only what it may use', async ({ page }) => {
  const biz = await seedBusiness();
  const expected = {
    owner: [
      'Overview',
      'Cards',
      'Messages',
      'Payouts',
      'Payments',
      'Shop orders',
      'Reports',
      'Approvals',
      'Developers',
      'Audit log',
      'Team',
      'Settings',
      'Till',
    ],
    operator: ['Overview', 'Cards', 'Messages', 'Payouts', 'Payments', 'Shop orders', 'Approvals', 'Till'],
    finance: ['Overview', 'Cards', 'Messages', 'Payouts', 'Payments', 'Shop orders', 'Reports', 'Approvals', 'Audit log'],
    support: ['Cards', 'Messages'],
  } as const;
  for (const role of Object.keys(expected) as (keyof typeof expected)[]) {
    await page.context().clearCookies();
    await signInWithForm(page, biz.emails[role]);
    await expect(page.getByTestId('role')).toHaveText(role);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText([...expected[role]]);
  }
});
