import { expect, type Page, test } from '@playwright/test';
import pg from 'pg';
import { expiryDay } from '../components/cards/expiry-day';
import { formatMoney } from '../components/ui/money';
import { cardExpiresAt } from '../lib/cards/card-expiry';
import { dayIn } from '../lib/time-zone';
import { baseUrl, call, expectAccessible, fundedCard, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

const ZONE = 'Africa/Addis_Ababa';

async function sql(text: string, values: unknown[]) {
  const db = new pg.Client({ connectionString: process.env.E2E_DATABASE_URL });
  await db.connect();
  try {
    return (await db.query(text, values)).rows;
  } finally {
    await db.end();
  }
}

const expiresIn = (card: string, days: number) => sql(`UPDATE cards SET expires_at = now() + make_interval(days => $2) WHERE card_number = $1`, [card, days]);

async function signInAs(page: Page, email: string) {
  await page.context().clearCookies();
  await signIn(page, email);
}

test('the owner sets an expiry policy; the new-card form and the card show the date', async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  await signIn(page, biz.emails.owner);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/cards/new`);
  await expect(page.getByTestId('expiry-before-create')).toHaveText('Cards never expire.');

  await page.goto(`${baseUrl()}/settings`);
  const form = page.getByRole('form', { name: 'Card expiry' });
  await form.getByLabel('Cards expire').selectOption('after_issue');
  await form.getByLabel('Months').fill('0');
  await form.getByRole('button', { name: 'Save expiry policy' }).click();
  await expect(page.locator('#expiry-months-error')).toContainText('At least 1 month.');
  await form.getByLabel('Months').fill('12');
  await form.getByRole('button', { name: 'Save expiry policy' }).click();
  await expect(page.getByTestId('expiry-policy-notice')).toHaveText('Saved. Cards expire 12 months after issue.');
  await expectAccessible(page);
  await screenshots(page, testInfo, 'settings-expiry');

  await page.goto(`${baseUrl()}/cards/new`);
  const day = expiryDay(cardExpiresAt({ kind: 'after_issue', months: 12 }, new Date(), ZONE)!, ZONE);
  await expect(page.getByTestId('expiry-before-create')).toHaveText(
    `Cards expire 12 months after issue. A card issued now can be used until the end of ${day}.`,
  );
  await screenshots(page, testInfo, 'new-card-expiry');

  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Liya' });
  expect(card.status, JSON.stringify(card.body)).toBe(201);
  await page.goto(`${baseUrl()}/cards/${card.body.data.card_number}`);
  await expect(page.getByTestId('card-expiry')).toHaveText(`End of ${expiryDay(card.body.data.expires_at, ZONE)}`);

  // Only the owner may change the policy: support has no settings page.
  await signInAs(page, biz.emails.support);
  const refused = await page.goto(`${baseUrl()}/settings`);
  expect(refused?.status()).toBe(403);
});

test('support and finance extend cards from the expiring list; at expiry the card turns read-only and tells its story', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const biz = await seedBusiness();
  const first = await fundedCard(biz, 4_000);
  const second = await fundedCard(biz, 2_500);
  await expiresIn(first, 3);
  await expiresIn(second, 10);

  await signIn(page, biz.emails.support);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/cards`);
  await page.getByRole('link', { name: 'Expiring soon' }).click();
  const list = page.getByTestId('expiring-cards');
  await expect(list.locator('li')).toHaveCount(2);
  // Soonest first.
  await expect(list.locator('li').first()).toHaveAttribute('data-testid', `expiring-${first}`);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'expiring-list');

  const row = page.getByTestId(`expiring-${first}`);
  await row.getByText('Extend', { exact: true }).click();
  const today = dayIn(ZONE, new Date());
  await row.getByLabel('New last day').fill(today);
  await row.getByLabel('Reason').fill('Customer was in hospital');
  await row.getByRole('button', { name: 'Extend expiry' }).click();
  await expect(row.locator(`#extend-${first}-date-error`)).toContainText('Choose a day after the current expiry');
  const later = dayIn(ZONE, new Date(Date.now() + 90 * 86_400_000));
  await row.getByLabel('New last day').fill(later);
  await row.getByRole('button', { name: 'Extend expiry' }).click();
  await expect(page.getByTestId(`expiring-${first}`)).toHaveCount(0);
  await expect(list.locator('li')).toHaveCount(1);

  // Finance extends the other from its card page.
  await signInAs(page, biz.emails.finance);
  await page.goto(`${baseUrl()}/cards/${second}`);
  const extend = page.getByRole('form', { name: `Extend card ending ${second.slice(-4)}` });
  await extend.getByLabel('New last day').fill(dayIn(ZONE, new Date(Date.now() + 40 * 86_400_000)));
  await extend.getByLabel('Reason').fill('Goodwill after a failed top-up');
  await extend.getByRole('button', { name: 'Extend expiry' }).click();
  await expect(page.getByTestId('extend-notice')).toContainText('Extended to');
  await expect(page.getByTestId('timeline-entry').filter({ hasText: 'Expiry extended' })).toContainText('Goodwill after a failed top-up');
  await screenshots(page, testInfo, 'card-extended');

  // The operator has no expiring list.
  await signInAs(page, biz.emails.operator);
  expect((await page.goto(`${baseUrl()}/cards/expiring`))?.status()).toBe(403);

  // The first card's day passes: the server's sweep expires it.
  await sql(`UPDATE cards SET expires_at = now() - interval '1 second' WHERE card_number = $1`, [first]);
  await expect.poll(async () => (await call('GET', `/api/v1/card/${first}`, biz.keys.test)).body.data.available_amount, { timeout: 60_000 }).toBe(0);
  await signInAs(page, biz.emails.support);
  await page.goto(`${baseUrl()}/cards/${first}`);
  await expect(page.getByTestId('expired-banner')).toContainText('This card has expired');
  await expect(page.getByTestId('card-status')).toHaveText('expired');
  await expect(page.getByTestId('card-balance')).toHaveText(formatMoney(0, 'ETB'));
  await expect(page.getByTestId('timeline-entry').filter({ hasText: 'Card expired' }).first()).toContainText(`ETB ${(4_000 / 100).toFixed(2)}`);
  await expect(page.getByTestId('timeline-entry').filter({ hasText: 'Expiry extended' })).toContainText('Customer was in hospital');
  await expect(page.getByRole('form', { name: /Extend card/ })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Disable card/ })).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-expired');
});
