import { expect, test } from '@playwright/test';
import {
  admin,
  baseUrl,
  call,
  expectAccessible,
  fundedCard,
  openListening,
  randomPhone,
  screenshots,
  seedBusiness,
  signIn,
  type SeededBusiness,
} from './dashboard-fixtures';

/** Issue 28, items 11 to 17: the rough edges daily dashboard users hit, as a person sees them. */

const spaced = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');

let biz: SeededBusiness;
let source: string; // funded
let poor: string; // holds ETB 10.00
let bankRef: string;
let topupRef: string;
let cancelled: string;
const tag = String(Date.now()).slice(-6);

async function newCard(first: string, last: string) {
  const res = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: first, last_name: last });
  expect(res.status).toBe(201);
  return res.body.data.card_number as string;
}

test.beforeAll(async () => {
  biz = await seedBusiness(`Rough Edges ${tag}`);
  source = await fundedCard(biz, 500_000);
  poor = await fundedCard(biz, 1_000);
  const bank = await call('POST', '/api/v1/card/payouts', biz.keys.test, {
    card_number: source,
    amount: 12_345,
    bank_slug: 'cbe',
    account_number: `55000${tag}01`,
    account_name: `Meron Girma${tag}`,
  });
  expect(bank.status).toBe(200);
  bankRef = bank.body.data.provider_reference;
  cancelled = await newCard('Yonas', `Cancelled${tag}`);
  expect((await call('DELETE', `/api/v1/card/${cancelled}`, biz.keys.test)).status).toBe(200);
  // A ledger top-up of the card: the payouts list shows it among the card's payouts.
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 500 })).status).toBe(200);
  const t = await call('POST', '/api/v1/transfers', biz.keys.test, { amount: 500, bank_slug: 'link', account_number: source, account_name: 'Float' });
  expect(t.status).toBe(200);
  topupRef = t.body.data.provider_reference;
});

test('11: the payouts list finds a card’s payouts by card number, a part of a reference, an account number or name; the card links to them', async ({
  page,
}, testInfo) => {
  await signIn(page, biz.emails.finance);
  const search = async (q: string) => {
    await page.goto(`${baseUrl()}/payouts`);
    await page.locator('#filter-q').fill(q);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/[?&]q=/);
  };
  await search(spaced(source));
  await expect(page.getByTestId(`payout-${bankRef}`)).toBeVisible();
  await expect(page.getByTestId(`payout-${topupRef}`)).toBeVisible();
  await search(bankRef.slice(3, 12).toUpperCase());
  await expect(page.getByTestId(`payout-${bankRef}`)).toBeVisible();
  await search(`55000${tag}01`);
  await expect(page.getByTestId(`payout-${bankRef}`)).toBeVisible();
  await search(`meron girma${tag}`);
  await expect(page.getByTestId(`payout-${bankRef}`)).toBeVisible();
  await expect(page.getByTestId(`payout-${topupRef}`)).toHaveCount(0);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payouts-search-account-name');

  await page.goto(`${baseUrl()}/cards/${source}`);
  await page.getByRole('link', { name: 'Payouts of this card' }).click();
  await expect(page).toHaveURL(new RegExp(`/payouts\\?q=${source}`));
  await expect(page.getByTestId(`payout-${bankRef}`)).toBeVisible();
  await expect(page.getByTestId(`payout-${topupRef}`)).toBeVisible();
  await page.goto(`${baseUrl()}/cards/${source}`);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-page-payouts-link');
});

test('12: support types the reference a customer reads out and lands on the card, without the payout’s money', async ({ page }, testInfo) => {
  await signIn(page, biz.emails.support);
  await page.goto(`${baseUrl()}/cards`);
  const box = page.getByRole('searchbox', { name: 'Search cards, payouts, payments and businesses' });
  await box.fill(bankRef);
  const found = page.getByTestId('header-search-results').getByTestId('search-references');
  await expect(found).toBeVisible();
  await expect(found).toContainText('Payout from this card');
  await expect(found).not.toContainText('123.45');
  await expect(found).not.toContainText('Meron');
  await found.getByRole('link').click();
  await expect(page).toHaveURL(new RegExp(`/cards/${source}$`));

  await page.goto(`${baseUrl()}/search?q=${encodeURIComponent(bankRef)}`);
  await expect(page.getByTestId('search-page-results').getByTestId('search-references').getByRole('link')).toHaveAttribute('href', `/cards/${source}`);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'search-reference-support');
});

test('13: "All" on the Cards list shows a cancelled card, marked Cancelled, and a search under All finds it', async ({ page }, testInfo) => {
  await signIn(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/cards`);
  const row = page
    .getByTestId('cards-table')
    .getByRole('row')
    .filter({ hasText: spaced(cancelled) });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Cancelled');
  await page.getByLabel('Card number, last four digits, phone or holder name').fill(`cancelled${tag}`);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('No cards match')).toHaveCount(0);
  await expect(
    page
      .getByTestId('cards-table')
      .getByRole('row')
      .filter({ hasText: spaced(cancelled) }),
  ).toBeVisible();
  await page.goto(`${baseUrl()}/cards`);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'cards-all');
});

test('14: a payout the preview refuses for its balance never opens the confirm dialog', async ({ page }, testInfo) => {
  await signIn(page, biz.emails.operator);
  await page.goto(`${baseUrl()}/payouts/new?card=${poor}`);
  // Card to card: the recipient question would come next; it must not.
  await page.getByLabel('Destination card number').fill(spaced(source));
  await expect(page.getByTestId('recipient-card')).toBeVisible();
  await page.getByLabel(/^Amount/).fill('50');
  await expect(page.getByTestId('preview-refusals')).toContainText('The card does not hold enough');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.locator('#amount-error')).toHaveText('The card does not hold enough for this payout and its fee.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByLabel(/^Amount/)).toBeFocused();

  // A large bank payout from the same card: no "large payout" question either.
  await page.getByLabel('Bank or wallet account').check();
  await page.getByLabel('Bank or wallet', { exact: true }).selectOption('cbe');
  await page.getByLabel('Account number').fill('1000200034001');
  await page.getByLabel('Account holder’s name').fill('Abebe Kebede');
  await page.getByLabel(/^Amount/).fill('150 000');
  await expect(page.getByTestId('preview-refusals')).toContainText('The card does not hold enough');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page.locator('#amount-error')).toHaveText('The card does not hold enough for this payout and its fee.');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect((await call('GET', `/api/v1/card/${poor}`, biz.keys.test)).body.data.available_amount).toBe(1_000);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'send-refused-without-dialog');
});

test('15: a card created through the API appears on an open Cards list without a reload', async ({ page }, testInfo) => {
  await signIn(page, biz.emails.owner);
  await openListening(page, '/cards');
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  const number = await newCard('Liya', `Live${tag}`);
  await expect(
    page
      .getByTestId('cards-table')
      .getByRole('row')
      .filter({ hasText: spaced(number) }),
  ).toBeVisible({ timeout: 5_000 });
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'cards-live');
});

test('16: a payout sent in the dashboard says which teammate started it', async ({ page }, testInfo) => {
  await signIn(page, biz.emails.operator);
  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await page.getByLabel('Bank or wallet account').check();
  await page.getByLabel('Bank or wallet', { exact: true }).selectOption('cbe');
  await page.getByLabel('Account number').fill('1000200034001');
  await page.getByLabel('Account holder’s name').fill('Abebe Kebede');
  await page.getByLabel(/^Amount/).fill('20');
  await page.getByRole('button', { name: 'Send payout' }).click();
  await expect(page).toHaveURL(/\/payouts\/[^/]+$/);
  await expect(page.getByTestId('started-by')).toHaveText(biz.emails.operator);
  await expectAccessible(page);
  await screenshots(page, testInfo, 'payout-started-by');

  // One started through the API names the key.
  await page.goto(`${baseUrl()}/payouts/${bankRef}`);
  await expect(page.getByTestId('started-by')).toContainText(`API key`);
  await expect(page.getByTestId('started-by')).toContainText(biz.keys.test.slice(0, 12));
});

test('17: the webhook replay period is on the business’s clock, whatever the browser’s zone', async ({ browser }, testInfo) => {
  const context = await browser.newContext({ timezoneId: 'America/New_York' });
  const page = await context.newPage();
  try {
    await signIn(page, biz.emails.owner);
    await page.goto(`${baseUrl()}/developers`);
    const wall = (at: number) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'Africa/Addis_Ababa',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .format(at)
        .replace(' ', 'T');
    const from = await page.getByLabel('From', { exact: true }).inputValue();
    // A day back on the Addis Ababa clock (seven or eight hours ahead of New York), give or take the minutes the page took.
    const drift = Math.abs(Date.parse(`${from}:00Z`) - Date.parse(`${wall(Date.now() - 24 * 3600_000)}:00Z`));
    expect(drift).toBeLessThan(3 * 60_000);
    await expect(page.getByText(/in Africa\/Addis Ababa \(UTC\+3\)/)).toBeVisible();
    await page.getByRole('button', { name: 'Replay failed events of this period' }).click();
    await expect(page.getByText('Nothing to send: no delivery failed for good in this period.')).toBeVisible();
    await page.getByLabel('From', { exact: true }).scrollIntoViewIfNeeded();
    await screenshots(page, testInfo, 'developers-replay-zone');
  } finally {
    await context.close();
  }
});
