import { expect, type Page, test } from '@playwright/test';
import { baseUrl, call, expectAccessible, randomPhone, screenshots, seedBusiness, signIn, type SeededBusiness } from './dashboard-fixtures';

/** One business with a named card, a payment with an order id, and another business to pay. */
async function seed() {
  const tag = String(Date.now()).slice(-6);
  const biz = await seedBusiness(`Search Shop ${tag}`);
  const supplier = await seedBusiness(`Zebra Roasters ${tag}`);
  const phone = randomPhone();
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: phone, currency: 'ETB', first_name: 'Abebe', last_name: `Kebede${tag}` });
  expect(card.status).toBe(201);
  const cardNumber: string = card.body.data.card_number;
  const order = `ORD-1005-${tag}`;
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, {
    type: 'hosted',
    amount: 2_500,
    card_number: cardNumber,
    merchant_reference: order,
  });
  expect(payment.status).toBeLessThan(300);
  const another = await call('POST', '/api/v1/card/payments', biz.keys.test, {
    type: 'hosted',
    amount: 900,
    card_number: cardNumber,
    merchant_reference: `ORD-2000-${tag}`,
  });
  expect(another.status).toBeLessThan(300);
  return {
    tag,
    biz,
    supplier,
    phone,
    cardNumber,
    order,
    linkReference: payment.body.data.link_reference as string,
    otherLinkReference: another.body.data.link_reference as string,
  };
}

const box = (page: Page) => page.getByRole('searchbox', { name: 'Search cards, payouts, payments and businesses' });
const panel = (page: Page) => page.getByTestId('header-search-results');

async function typeSearch(page: Page, text: string) {
  await box(page).fill(text);
  await expect(panel(page)).toBeVisible();
  await expect(panel(page).getByText('Searching…')).toHaveCount(0);
}

let data: Awaited<ReturnType<typeof seed>>;
test.beforeAll(async () => {
  data = await seed();
});

for (const role of ['support', 'operator'] as const) {
  test(`${role}: the header search finds a card by last four, a name fragment and a 0911 phone, and an order id`, async ({ page }, testInfo) => {
    const { biz, cardNumber, phone, order, linkReference, tag, supplier } = data;
    await signIn(page, (biz as SeededBusiness).emails[role]);
    await page.goto(`${baseUrl()}/cards`);

    // "/" jumps to the search from anywhere on the page.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('/');
    await expect(box(page)).toBeFocused();
    await page.keyboard.type(cardNumber.slice(-4));
    const cards = panel(page).getByTestId('search-cards');
    await expect(cards.getByRole('heading', { name: /Cards/ })).toBeVisible();
    const cardLink = cards.getByRole('link', { name: new RegExp(`Abebe Kebede${tag}`) });
    await expect(cardLink).toHaveAttribute('href', `/cards/${cardNumber}`);
    await expectAccessible(page);
    await screenshots(page, testInfo, `search-last-four-${role}`);

    // Escape closes; Ctrl+K opens again.
    await page.keyboard.press('Escape');
    await expect(panel(page)).toHaveCount(0);
    await page.locator('h1').click();
    await page.keyboard.press('Control+k');
    await expect(box(page)).toBeFocused();

    await typeSearch(page, `ebe kebede${tag}`.toUpperCase());
    await expect(panel(page).getByTestId('search-cards').getByRole('link')).toHaveAttribute('href', `/cards/${cardNumber}`);

    const national = phone.slice(4);
    await typeSearch(page, `0${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`);
    await expect(panel(page).getByTestId('search-cards').getByRole('link')).toHaveAttribute('href', `/cards/${cardNumber}`);

    await typeSearch(page, order.toLowerCase());
    if (role === 'operator') {
      const payments = panel(page).getByTestId('search-payments');
      await expect(payments.getByRole('heading', { name: /Payments/ })).toBeVisible();
      await expect(payments.getByRole('link', { name: new RegExp(`Order ${order}`) })).toHaveAttribute('href', `/payments/${linkReference}`);
      await screenshots(page, testInfo, `search-order-${role}`);
      // Another business by name: its name and merchant id, linking to a business payout.
      await typeSearch(page, `zebra roasters ${tag}`);
      const other = panel(page).getByTestId('search-businesses');
      await expect(other).toContainText(supplier.merchantId);
      await expect(other.getByRole('link')).toHaveAttribute('href', `/payouts/new?type=b2b&merchant_id=${supplier.merchantId}`);
      await other.getByRole('link').click();
      await expect(page).toHaveURL(/\/payouts\/new\?type=b2b/);
      await expect(page.getByRole('radio', { name: /Another business/ })).toBeChecked();
      await expect(page.getByLabel(/Merchant id/)).toHaveValue(supplier.merchantId);
      // The payments list takes the same search: part of the order id.
      await page.goto(`${baseUrl()}/payments?q=${encodeURIComponent(`1005-${tag}`)}`);
      await expect(page.getByLabel('Search', { exact: true })).toHaveValue(`1005-${tag}`);
      await expect(page.locator('main')).toContainText(linkReference);
      await expect(page.locator('main')).not.toContainText(data.otherLinkReference);
      await expectAccessible(page);
      await screenshots(page, testInfo, 'payments-searched-operator');
    } else {
      // Support does not see payments: the order id finds nothing it may open.
      await expect(panel(page).getByTestId('search-payments')).toHaveCount(0);
      await expect(panel(page).getByTestId('search-nothing')).toBeVisible();
    }

    // Enter opens the full results page; a result opens the card.
    await typeSearch(page, cardNumber.slice(-4));
    await box(page).press('Enter');
    await expect(page).toHaveURL(new RegExp(`/search\\?q=${cardNumber.slice(-4)}`));
    await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
    const result = page.getByTestId('search-page-results').getByRole('link', { name: new RegExp(`Abebe Kebede${tag}`) });
    await expect(result).toBeVisible();
    await expectAccessible(page);
    await screenshots(page, testInfo, `search-page-${role}`);
    await result.click();
    await expect(page).toHaveURL(new RegExp(`/cards/${cardNumber}$`));
  });
}

test('the search answers only the signed-in business, and refuses an overlong query with a clear message', async ({ page }) => {
  const other = await seedBusiness(`Elsewhere ${Date.now()}`);
  await signIn(page, other.emails.owner);
  const res = await page.request.get(`${baseUrl()}/api/dashboard/search?q=${encodeURIComponent(data.order)}`);
  expect(res.status()).toBe(200);
  const body = await res.json();
  expect(body.data.cards).toEqual([]);
  expect(body.data.payments).toEqual([]);
  const byName = await (await page.request.get(`${baseUrl()}/api/dashboard/search?q=${encodeURIComponent(`kebede${data.tag}`)}`)).json();
  expect(byName.data.cards).toEqual([]);
  const long = await page.request.get(`${baseUrl()}/api/dashboard/search?q=${'x'.repeat(101)}`);
  expect(long.status()).toBe(400);
  expect(JSON.stringify(await long.json())).toContain('at most 100 characters');
  // A NUL byte, which PostgreSQL refuses in text, is a clear 400 here, and a searched list or a page path reads it without failing.
  const nul = await page.request.get(`${baseUrl()}/api/dashboard/search?q=abc%00`);
  expect(nul.status()).toBe(400);
  expect(JSON.stringify(await nul.json())).toContain('control characters');
  expect((await page.request.get(`${baseUrl()}/cards?q=abc%00`)).status()).toBe(200);
  expect((await page.request.get(`${baseUrl()}/payouts?q=abc%00`)).status()).toBe(200);
  // Pages stream behind their loading state, so a not-found page answers 200 with the not-found text rather than a 404 status.
  for (const path of ['/cards/%E0%A4%A', '/payments/%', '/api/v1/card/%ZZ']) {
    const res = await page.request.get(`${baseUrl()}${path}`);
    expect(res.status(), path).toBe(400);
    expect(await res.json()).toMatchObject({ status: 'error', message: 'Invalid request' });
  }
  for (const path of ['/cards/%00', '/payouts/%00', '/payments/%00']) {
    await page.goto(`${baseUrl()}${path}`);
    await expect(page.getByText(/not found|could not be found/i).first(), path).toBeVisible();
    await expect(page.getByText(/could not be loaded/), path).toHaveCount(0);
  }
  const signedOut = await fetch(`${baseUrl()}/api/dashboard/search?q=abc`);
  expect(signedOut.status).toBe(401);
});
