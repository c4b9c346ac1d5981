import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, PASSWORD, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

/** A webhook receiver on 127.0.0.1 (test mode allows loopback http) that answers 200 and keeps each webhook-id. */
async function startReceiver() {
  const ids: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    ids,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function newestKeyPrefix(page: Page) {
  return (await page.getByTestId('api-keys').locator('li').first().getAttribute('data-testid'))!.replace(/^key-/, '');
}

test('owner creates a key shown once, revokes it, sets a webhook URL and replays a delivery; the audit log shows both actors', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const receiver = await startReceiver();
  try {
    await signIn(page, biz.emails.owner);
    await page.goto(`${baseUrl()}/developers`);
    await expect(page.getByRole('heading', { name: 'Developers' })).toBeVisible();
    await expect(page.getByText('No deliveries yet')).toBeVisible();
    await expectAccessible(page);

    // Create: a key needs a name; the secret is on the page once.
    await page.getByRole('button', { name: 'Create test API key' }).click();
    await expect(page.locator('#new-key-name-error')).toHaveText(/Give the key a name/);
    await page.getByLabel('Name of the new key').fill('Shop backend');
    await page.getByRole('button', { name: 'Create test API key' }).click();
    const secretBox = page.getByTestId('new-key-value');
    await expect(secretBox).toHaveValue(/^sk_test_[0-9A-Za-z]{32}$/);
    const key = await secretBox.inputValue();
    const keyRow = page.getByTestId(`key-${key.slice(0, 12)}`);
    await expect(keyRow).toBeVisible();
    await expect(keyRow.getByTestId('key-name')).toHaveText('Shop backend');
    await expect(keyRow).toContainText(`${key.slice(0, 12)}…${key.slice(-4)}`);
    await expect(keyRow.getByTestId('key-last-used')).toHaveText('never used');
    await expectAccessible(page);
    await screenshots(page, testInfo, 'developers-new-key');
    expect((await call('GET', '/api/v1/card', key)).status).toBe(200);
    // Last used is written (at most once a minute) without the request waiting for it.
    await expect(async () => {
      await page.reload();
      await expect(page.getByTestId(`key-${key.slice(0, 12)}`).getByTestId('key-last-used')).toHaveText(/^last used /, { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId('new-key')).toHaveCount(0);
    expect(await page.content()).not.toContain(key);
    expect(await newestKeyPrefix(page)).toBe(key.slice(0, 12));

    // Rename: the list and the audit log follow.
    await keyRow.getByRole('button', { name: `Rename key ${key.slice(0, 12)}` }).click();
    await page.getByLabel(`New name for ${key.slice(0, 12)}…`).fill('Shop backend (2025)');
    await page.getByRole('button', { name: 'Save name' }).click();
    await expect(page.getByTestId('keys-notice')).toContainText('is now called “Shop backend (2025)”');
    await expect(keyRow.getByTestId('key-name')).toHaveText('Shop backend (2025)');
    await screenshots(page, testInfo, 'developers-renamed-key');

    // Revoke: the API refuses it from then on.
    const row = page.getByTestId(`key-${key.slice(0, 12)}`);
    await row.getByRole('button', { name: `Revoke key ${key.slice(0, 12)}` }).click();
    await expectAccessible(page);
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expect(page.getByTestId('keys-notice')).toContainText('is revoked');
    await expect(row.getByText('revoked', { exact: true })).toBeVisible();
    const refused = await call('GET', '/api/v1/card', key);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Forbidden');

    // Webhook URL: refused live-only rules do not apply in test; a bad URL lands on the field.
    const url = page.getByLabel('Endpoint URL');
    await url.fill('not a url');
    await page.getByRole('button', { name: 'Set URL' }).click();
    await expect(page.locator('#webhook-url-error')).toBeVisible();
    await url.fill(receiver.url);
    await page.getByRole('button', { name: 'Set URL' }).click();
    await expect(page.getByTestId('webhook-notice')).toContainText(receiver.url);
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    await expect(page.getByTestId('webhook-secret')).toHaveValue(/^whsec_/);

    // An event through the API: fund, top up a card by transfer, settle it.
    expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 50_000 })).status).toBe(200);
    const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Dev', last_name: 'Test' });
    expect(card.status).toBe(201);
    const transfer = await call('POST', '/api/v1/transfers', biz.keys.test, {
      amount: 2_500,
      bank_slug: 'link',
      account_number: card.body.data.card_number,
      account_name: 'Top-up',
    });
    expect(transfer.status).toBe(200);
    const ref = transfer.body.data.provider_reference;
    expect((await call('POST', `/api/v1/test-helpers/payouts/${ref}/settle`, biz.keys.test, { status: 'success' })).status).toBe(200);
    await expect.poll(() => receiver.ids.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);

    const delivery = page.getByTestId('delivery').filter({ hasText: 'payout.success' });
    await expect
      .poll(
        async () => {
          await page.reload();
          return (await delivery.textContent()) ?? '';
        },
        { timeout: 20_000 },
      )
      .toContain('delivered');
    // The receiver is on loopback: the business sees that it worked, never its status, reply or timing.
    const attempt = delivery.getByTestId('attempt').first();
    await expect(attempt).not.toContainText('thanks');
    await expect(attempt.locator('td').nth(1)).toHaveText('—');
    // Each delivery shows the exact body, the headers with signatures hidden, and its payout.
    await delivery.getByText('Payload and headers sent').click();
    await expect(delivery.getByTestId('delivery-payload')).toContainText(`"provider_reference": "${ref}"`);
    await expect(delivery.getByTestId('delivery-headers')).toContainText('service-signature');
    await expect(delivery.getByTestId('delivery-headers')).toContainText('(hidden: derived from the signing secret)');
    await expect(delivery.getByTestId('delivery-headers')).toContainText(receiver.ids[0]);
    await expect(delivery.getByTestId('delivery-subject')).toHaveAttribute('href', `/payouts/${ref}`);
    await expectAccessible(page);
    await screenshots(page, testInfo, 'developers');

    const eventId = receiver.ids[0];
    await delivery.getByRole('button', { name: `Replay event ${eventId}` }).click();
    await expect(delivery.getByRole('status').filter({ hasText: 'Queued: it will be sent within a few seconds.' })).toBeVisible();
    await expect.poll(() => receiver.ids.filter((id) => id === eventId).length, { timeout: 20_000 }).toBe(2);

    // A test event: signed and sent once at the press of a button. The receiver is on loopback, not a public
    // address, so the answer comes at once and the outcome only in the audit log (it must not time the target).
    const sentBefore = receiver.ids.length;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    await expect(page.getByTestId('test-event-result')).toContainText(/Test event msg_test_\S+ sent to .*It is sent in the background/);
    await expect.poll(() => receiver.ids.length, { timeout: 20_000 }).toBe(sentBefore + 1);
    expect(receiver.ids.at(-1)).toMatch(/^msg_test_/);
    await screenshots(page, testInfo, 'developers-test-event');

    // Audit log: the dashboard user's and the API key's actions, filterable by actor.
    const rows = page.getByTestId('audit-row');
    // The test event's line is written when its background delivery ends.
    await expect(async () => {
      await page.goto(`${baseUrl()}/audit`);
      await expect(rows.filter({ hasText: /Sent a test event to .*; it was delivered\./ })).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 20_000 });
    await expect(rows.filter({ hasText: 'Revoked API key' })).toContainText(biz.emails.owner);
    await expect(rows.filter({ hasText: 'Replayed event' })).toContainText(biz.emails.owner);
    await expect(rows.filter({ hasText: /Sent a test event to .*; it was delivered\./ })).toContainText(biz.emails.owner);
    await expect(rows.filter({ hasText: 'Created API key “Shop backend”' })).toContainText(biz.emails.owner);
    await expect(rows.filter({ hasText: 'Renamed API key' })).toContainText('to “Shop backend (2025)”');
    await expect(rows.filter({ hasText: 'Started a top-up' })).toContainText(/API key sk_test_/);
    await expect(rows.filter({ hasText: /Top-up \S+ of ETB\s[\d,.]+ from the business balance to card \d+ succeeded\./ })).toContainText(/API key sk_test_/);
    await expect(rows.filter({ hasText: /The business balance was credited with ETB\s/ })).toContainText('Provider back office');
    await expectAccessible(page);
    await screenshots(page, testInfo, 'audit');
    await page.getByLabel('Actor').selectOption('api_key');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/actor=api_key/);
    await expect(rows.first()).toBeVisible();
    for (const text of await rows.allTextContents()) expect(text).toContain('API key sk_test_');
    await page.getByLabel('Action').selectOption('card');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText(/Created card \d+\./);
  } finally {
    await receiver.close();
  }
});

test('owner invites an operator who joins by the link and can sign in, changes a role, removes a user; never themselves', async ({
  page,
  browser,
}, testInfo) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/team`);
  await expect(page.getByRole('heading', { name: 'Team', exact: true })).toBeVisible();
  await expect(page.getByTestId('team-member')).toHaveCount(4);
  await expect(page.getByTestId('team-member').filter({ hasText: '(you)' }).getByRole('button')).toHaveCount(0);
  await expectAccessible(page);

  const email = `new-operator-${biz.id}@example.com`;
  await page.getByLabel('Email').fill('not-an-email');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  await expect(page.locator('#invite-email-error')).toContainText('Enter an email address, like name@example.com.');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role', { exact: true }).selectOption('operator');
  await page.getByRole('button', { name: 'Invite', exact: true }).click();
  const link = await page.getByTestId('invite-link').inputValue();
  expect(link).toMatch(/\/invite\/[0-9A-Za-z]{43}$/);
  await expect(page.getByTestId('pending-invitation').filter({ hasText: email })).toHaveCount(1);
  // Until the invitation is accepted, the new operator has no account.
  await expect(page.getByTestId('team-member')).toHaveCount(4);

  const invited = await browser.newContext();
  const invitedPage = await invited.newPage();
  await invitedPage.goto(link);
  await invitedPage.getByLabel('Choose a password').fill(PASSWORD);
  await invitedPage.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(invitedPage.getByTestId('role')).toHaveText('operator');
  await invited.close();

  await page.reload();
  await expect(page.getByTestId('team-member')).toHaveCount(5);
  await expect(page.getByTestId('pending-invitation')).toHaveCount(0);
  // Last sign-in: the owner has just signed in, and so has the new operator (joining signs them in); a seeded user never has.
  await expect(page.getByTestId('team-member').filter({ hasText: '(you)' }).getByTestId('last-sign-in')).toHaveText(/^last signed in /);
  await expect(page.getByTestId('team-member').filter({ hasText: email }).getByTestId('last-sign-in')).toHaveText(/^last signed in /);
  await expect(page.getByTestId('team-member').filter({ hasText: biz.emails.support }).getByTestId('last-sign-in')).toHaveText('never signed in');
  await screenshots(page, testInfo, 'team');

  // Role change and removal.
  const support = page.getByTestId('team-member').filter({ hasText: biz.emails.support });
  await support.getByLabel(`Role of ${biz.emails.support}`, { exact: true }).selectOption('finance');
  await support.getByRole('button', { name: `Save role of ${biz.emails.support}` }).click();
  await expect(
    page.getByTestId('team-member').filter({ hasText: biz.emails.support }).getByLabel(`Role of ${biz.emails.support}`, { exact: true }),
  ).toHaveValue('finance');
  const finance = page.getByTestId('team-member').filter({ hasText: biz.emails.finance });
  await finance.getByRole('button', { name: `Remove ${biz.emails.finance}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove user' }).click();
  await expect(page.getByTestId('team-member')).toHaveCount(4);
  await expectAccessible(page);

  const other = await browser.newContext();
  const operatorPage = await other.newPage();
  await signIn(operatorPage, email);
  await operatorPage.goto(`${baseUrl()}/`);
  await expect(operatorPage.getByTestId('role')).toHaveText('operator');
  await other.close();

  const removed = await browser.newContext();
  const removedPage = await removed.newPage();
  await removedPage.goto(`${baseUrl()}/login`);
  await removedPage.getByLabel('Email').fill(biz.emails.finance);
  await removedPage.getByLabel('Password').fill(PASSWORD);
  await removedPage.getByRole('button', { name: 'Sign in' }).click();
  await expect(removedPage.getByRole('alert').filter({ hasText: 'Wrong' })).toHaveText(/Wrong email or password/);
  await removed.close();

  await page.goto(`${baseUrl()}/audit?action=user`);
  await expect(page.getByTestId('audit-row').filter({ hasText: /Invited \S+ to join the team as operator/ })).toContainText(email);
  await expect(page.getByTestId('audit-row').filter({ hasText: /accepted the invitation and joined the team as operator/ })).toContainText(email);
  await expect(page.getByTestId('audit-row').filter({ hasText: /Removed \S+ \(finance\) from the team/ })).toContainText(biz.emails.finance);
});

test('non-owners get the forbidden page on /developers and /team; finance reads the audit log', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  for (const role of ['operator', 'finance', 'support'] as const) {
    await page.context().clearCookies();
    await signIn(page, biz.emails[role]);
    for (const path of ['/developers', '/team']) {
      await page.goto(`${baseUrl()}${path}`);
      await expect(page.getByText('Your role does not give you access to this page.')).toBeVisible();
    }
    await page.goto(`${baseUrl()}/audit`);
    if (role === 'finance') {
      await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
      await expect(page.getByText('Nothing recorded yet')).toBeVisible();
      await expectAccessible(page);
      await screenshots(page, testInfo, 'audit-empty');
    } else {
      await expect(page.getByText('Your role does not give you access to this page.')).toBeVisible();
    }
  }
});
