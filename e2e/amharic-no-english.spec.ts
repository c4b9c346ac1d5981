import fs from 'node:fs';
import path from 'node:path';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { newCardLink } from '../lib/cards/card-links';
import { createDb } from '../lib/db/client';
import { admin, baseUrl, call, fundedCard, randomPhone, screenshots, type SeededBusiness, seedBusiness, signIn } from './dashboard-fixtures';

/**
 * Issue 42's whole-app check: a reader of Amharic finds no English interface word on any page of the app.
 * Every page under app/ is visited (the list is walked from the folder, so a page added later is visited or
 * fails this test), as an owner and as a finance user who chose Amharic and the Ethiopian calendar, and
 * signed out for the public pages. What is left of the visible text once names, codes, numbers, references,
 * emails, URLs and ALLOWED words are taken out must hold no Latin word, and nothing may be wider than 390 px.
 */

const APP = path.resolve(import.meta.dirname, '../app');

/** Every page.tsx under app/, as its route: groups `(x)` dropped, dynamic segments kept as `[name]`. */
function walkPages(dir = APP): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return walkPages(full);
    if (e.name !== 'page.tsx') return [];
    const route = path
      .relative(APP, dir)
      .split(path.sep)
      .filter((s) => s && !/^\(.*\)$/.test(s))
      .join('/');
    return [`/${route}`];
  });
}

/** Data the pages show, made once per run. */
interface Seeded {
  biz: SeededBusiness;
  cardNumber: string;
  payoutReference: string;
  paymentReference: string;
  /** The token of the card's own page (/c/{token}), made as the share endpoint makes it. */
  cardToken: string;
  /** The business's public shop, and an order placed on it (waiting for its payment). */
  shopSlug: string;
  orderReference: string;
}

type Who = 'owner' | 'finance' | 'public';

/** Where each page is visited, and by whom: a page the walk finds that is missing here fails the test. */
const PAGES: Record<string, { url: (s: Seeded) => string; who: Who[] }> = {
  '/': { url: () => '/', who: ['owner', 'finance'] },
  '/account': { url: () => '/account', who: ['owner', 'finance'] },
  '/account/two-factor': { url: () => '/account/two-factor', who: ['owner'] },
  '/approvals': { url: () => '/approvals', who: ['owner', 'finance'] },
  '/audit': { url: () => '/audit', who: ['owner', 'finance'] },
  '/cards': { url: () => '/cards', who: ['owner', 'finance'] },
  '/cards/[card_number]': { url: (s) => `/cards/${s.cardNumber}`, who: ['owner', 'finance'] },
  '/cards/expiring': { url: () => '/cards/expiring', who: ['owner', 'finance'] },
  '/cards/new': { url: () => '/cards/new', who: ['owner'] },
  '/cards/upload': { url: () => '/cards/upload', who: ['owner'] },
  // No upload is made here: an unknown reference draws the not-found page, in Amharic too.
  '/cards/upload/[reference]': { url: () => '/cards/upload/upl_none', who: ['owner'] },
  '/developers': { url: () => '/developers', who: ['owner'] },
  '/payments': { url: () => '/payments', who: ['owner', 'finance'] },
  '/payments/[reference]': { url: (s) => `/payments/${s.paymentReference}`, who: ['owner', 'finance'] },
  '/payments/new': { url: () => '/payments/new', who: ['owner'] },
  '/payouts': { url: () => '/payouts', who: ['owner', 'finance'] },
  '/payouts/[reference]': { url: (s) => `/payouts/${s.payoutReference}`, who: ['owner', 'finance'] },
  '/payouts/new': { url: () => '/payouts/new', who: ['owner'] },
  '/payouts/upload': { url: () => '/payouts/upload', who: ['owner'] },
  '/payouts/upload/[reference]': { url: () => '/payouts/upload/upl_none', who: ['owner'] },
  '/reports': { url: () => '/reports', who: ['owner', 'finance'] },
  '/reports/liability': { url: () => '/reports/liability', who: ['owner', 'finance'] },
  '/reports/reconciliation': { url: () => '/reports/reconciliation', who: ['owner', 'finance'] },
  '/reports/statement': { url: () => '/reports/statement', who: ['owner', 'finance'] },
  '/search': { url: () => `/search?q=${encodeURIComponent('Meron')}`, who: ['owner', 'finance'] },
  '/settings': { url: () => '/settings', who: ['owner', 'finance'] },
  '/team': { url: () => '/team', who: ['owner'] },
  '/login': { url: () => '/login', who: ['public'] },
  '/forgot': { url: () => '/forgot', who: ['public'] },
  '/reset/[token]': { url: () => '/reset/no-such-token', who: ['public'] },
  '/invite/[token]': { url: () => '/invite/no-such-token', who: ['public'] },
  '/checkout/[reference]': { url: (s) => `/checkout/${s.paymentReference}?lang=am`, who: ['public'] },
  '/c/[token]': { url: (s) => `/c/${s.cardToken}?lang=am`, who: ['public'] },
  '/messages': { url: () => '/messages', who: ['owner'] },
  '/till': { url: () => '/till', who: ['owner'] },
  '/reports/till': { url: () => '/reports/till', who: ['owner', 'finance'] },
  '/shop-orders': { url: () => '/shop-orders', who: ['owner'] },
  '/shop-orders/[reference]': { url: (s) => `/shop-orders/${s.orderReference}`, who: ['owner'] },
  '/shop/[slug]': { url: (s) => `/shop/${s.shopSlug}`, who: ['public'] },
  '/shop/[slug]/orders/[reference]': { url: (s) => `/shop/${s.shopSlug}/orders/${s.orderReference}`, who: ['public'] },
  '/docs': { url: () => '/docs', who: ['public'] },
  '/docs/webhooks': { url: () => '/docs/webhooks', who: ['public'] },
};

/** Visited with an address that answers 404: the not-found page is what they show here. */
const NOT_FOUND = new Set(['(404)', '/cards/upload/[reference]', '/payouts/upload/[reference]']);

/** Pages drawn by Next.js for a missing address: not a page.tsx, visited all the same. */
const EXTRA_PAGES: typeof PAGES = {
  '(404)': { url: () => '/no-such-page', who: ['owner', 'public'] },
  // The reconciliation read for the spends recorded at no branch: its note and its narrower table.
  '(reconciliation at no branch)': { url: () => '/reports/reconciliation?location=none', who: ['owner'] },
};

/** Words that are the same in an Amharic interface: currency and technical codes, brand and place names. */
const ALLOWED = new Set([
  'ETB',
  'USD',
  'API',
  'CSV',
  'Chapa',
  'HTTP',
  'HTTPS',
  'URL',
  'GET',
  'POST',
  'UTC',
  'ISO',
  'OTP',
  'SMS',
  'JSON',
  'telebirr',
  'Telebirr',
  'M-PESA',
  'CBE',
  'Africa',
  'Addis',
  'Ababa',
  'https',
  'http',
  'localhost',
  // A language's own name, as the language switch and the language choice write it.
  'English',
  // Authenticator apps, by the names their makers give them (two-factor set-up).
  'Google',
  'Authenticator',
  '1Password',
  'Authy',
  // What a keyboard's key and a code printed for scanners are called everywhere (the till).
  'Enter',
  'QR',
  // The API docs: the specification and the languages of the code samples, and the signature headers
  // the captions of those samples name (Node: webhook-signature…).
  'OpenAPI',
  'Node',
  'TypeScript',
  'webhook-signature',
  'service-signature',
  'x-service-signature',
]);

const ALLOWED_ANY_CASE = new Set([...ALLOWED].map((w) => w.toLowerCase()));

/** ISO 4217 codes: a limit or a threshold per currency names it by its code. */
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/**
 * SHRINK-ONLY: pages that still show English to a reader of Amharic, each with who is converting it. Such a
 * page may show English words; every other page may not. A page listed here that shows no English any more
 * fails the test, so its entry must go: the list can only shrink.
 */
const STILL_ENGLISH: Record<string, string> = {};

/** The person names, business names and other data the seed writes, which are not interface words. */
const seededNames = (s: Seeded) => [s.biz.name, 'Back office key', 'Meron', 'Alemu', 'Funded', 'Card', 'Float', 'ORD'];

/** The visible text of the page (and its title and placeholders), without code, ids and the like. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    // innerText is what is drawn (hidden and closed parts left out, a reference broken over lines kept whole);
    // code, monospaced ids and select lists are hidden for the reading, and a select counts by its chosen option;
    // so are the API docs' words taken from openapi.json ([data-contract], marked lang="en"): the API's contract, which programs read.
    const codeLike = [...document.querySelectorAll<HTMLElement>('code,pre,kbd,samp,select,.font-mono,[data-contract]')];
    const chosen = codeLike
      .filter((el) => el instanceof HTMLSelectElement && el.checkVisibility())
      .map((s) => (s as HTMLSelectElement).selectedOptions[0]?.text ?? '');
    const saved = codeLike.map((el) => el.style.display);
    for (const el of codeLike) el.style.setProperty('display', 'none', 'important');
    // biome-ignore lint/performance/useDomNodeTextContent: the drawn text is the point: textContent would read hidden parts too
    const drawn = document.body.innerText;
    codeLike.forEach((el, i) => {
      el.style.display = saved[i];
    });
    const placeholders = [...document.querySelectorAll<HTMLInputElement>('input[placeholder],textarea[placeholder]')]
      .filter((i) => i.checkVisibility())
      .map((i) => i.placeholder);
    return [document.title, drawn, ...chosen, ...placeholders].join('\n');
  });
}

/** The Latin words left once everything that may stay Latin is taken out. */
function englishWords(text: string, names: string[]): string[] {
  let rest = text;
  for (const name of names) rest = rest.replaceAll(name, ' ');
  rest = rest
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .replace(/[\w.+-]+@[\w-]+(\.[\w-]+)+/g, ' ')
    .replace(/(^|[\s(])\/[\w/.\-?=&%[\]]*/g, ' ')
    .replace(/\?[a-z_]+=[\w-]+/g, ' ')
    .replace(/\b[a-z]+_[A-Za-z0-9_]+\b/g, ' ')
    .replace(/…[A-Za-z0-9]{1,8}\b/g, ' ')
    .replace(/\b(?=[A-Za-z0-9]*\d)[A-Za-z0-9-]{6,}\b/g, ' ');
  const words = rest.match(/[A-Za-z][A-Za-z'’-]*[A-Za-z]/g) ?? [];
  // A word drawn in capitals (CSS text-transform) is the same word.
  return [...new Set(words.filter((w) => !ALLOWED_ANY_CASE.has(w.toLowerCase()) && !CURRENCIES.has(w)))].sort();
}

async function seed(): Promise<Seeded> {
  const biz = await seedBusiness(`ቦሌ መጻሕፍት ${Date.now()}`);
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Meron', last_name: 'Alemu' });
  expect(card.status).toBe(201);
  const cardNumber = card.body.data.card_number as string;
  await fundedCard(biz, 80_000);
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 50_000 })).status).toBe(200);
  const topup = await call('POST', '/api/v1/transfers', biz.keys.test, {
    amount: 20_000,
    bank_slug: 'link',
    account_number: cardNumber,
    account_name: 'Float',
  });
  expect(topup.status).toBe(200);
  const payment = await call('POST', '/api/v1/card/payments', biz.keys.test, {
    type: 'hosted',
    amount: 1_500,
    card_number: cardNumber,
    merchant_reference: `ORD-${Date.now()}`,
  });
  expect(payment.status).toBe(201);
  // The shop and its order are written in Amharic, as a business selling to Amharic readers would.
  const shopSlug = `${Date.now()}`;
  // Its customers read Amharic too: what Settings previews of their messages is in Amharic.
  expect((await admin('PUT', `/api/admin/businesses/${biz.id}/locale`, { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(200);
  const shop = await admin('PUT', `/api/admin/businesses/${biz.id}/shop`, {
    enabled: true,
    mode: 'test',
    slug: shopSlug,
    currency: 'ETB',
    preset_amounts: [20_000, 50_000],
    min_amount: 10_000,
    max_amount: 500_000,
    headline: 'የቡና ስጦታ',
    color: '#0f766e',
  });
  expect(shop.status, JSON.stringify(shop.body)).toBe(200);
  const placed = await fetch(`${baseUrl()}/api/shop/${shopSlug}/orders`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      amount: 20_000,
      recipient: { name: 'ሐና ተስፋዬ', phone_number: randomPhone() },
      message: 'መልካም ልደት',
      buyer: { name: 'አበበ ከበደ', email: 'abebe@example.com' },
    }),
  });
  expect(placed.status).toBe(201);
  const orderReference = ((await placed.json()) as { data: { order_reference: string } }).data.order_reference;
  const { db, pool } = createDb(process.env.E2E_DATABASE_URL!, 1);
  try {
    const { rows } = await pool.query('SELECT id FROM cards WHERE card_number = $1', [cardNumber]);
    const link = await newCardLink(db, { businessId: biz.id, mode: 'test', cardId: Number(rows[0].id) });
    return {
      biz,
      cardNumber,
      payoutReference: topup.body.data.provider_reference,
      paymentReference: payment.body.data.link_reference,
      cardToken: link.token,
      shopSlug,
      orderReference,
    };
  } finally {
    await pool.end();
  }
}

/** A browser that asks for Amharic; signed in, the person's stored choice is Amharic and the Ethiopian calendar too. */
async function reader(browser: Browser, email?: string): Promise<Page> {
  const context = await browser.newContext({ locale: 'am-ET' });
  const page = await context.newPage();
  if (!email) return page;
  await signIn(page, email);
  await page.goto(`${baseUrl()}/account`);
  await page.locator('#account-language').selectOption('am');
  await page.locator('#account-calendar').selectOption('ethiopic');
  await page
    .locator('form', { has: page.locator('#account-calendar') })
    .getByRole('button')
    .click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'am');
  return page;
}

test('the app walked from app/ is the app this check visits', () => {
  expect(walkPages().sort()).toEqual(Object.keys(PAGES).sort());
});

test('a reader of Amharic finds no English interface word on any page, and every page fits 390 px', async ({ browser }, testInfo) => {
  test.setTimeout(600_000);
  const seeded = await seed();
  const names = seededNames(seeded);
  const readers: Record<Who, Page> = {
    owner: await reader(browser, seeded.biz.emails.owner),
    finance: await reader(browser, seeded.biz.emails.finance),
    public: await reader(browser),
  };
  const found: Record<string, string[]> = {};
  const wide: string[] = [];
  for (const [route, { url, who }] of Object.entries({ ...PAGES, ...EXTRA_PAGES })) {
    for (const w of who) {
      const page = readers[w];
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${baseUrl()}${url(seeded)}`);
      await expect(page.locator('html'), `${route} as ${w}`).toHaveAttribute('lang', 'am');
      await expect(page.locator('main').first()).toBeVisible();
      // A page that failed reads in Amharic too: it must not pass for a converted one.
      await expect(page.getByTestId('route-error'), `${route} as ${w}`).toHaveCount(0);
      if (!NOT_FOUND.has(route)) await expect(page.getByTestId('error-page'), `${route} as ${w}`).toHaveCount(0);
      const words = englishWords(await visibleText(page), names);
      found[route] = [...new Set([...(found[route] ?? []), ...words])].sort();
      await page.setViewportSize({ width: 390, height: 844 });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      if (overflow > 1) wide.push(`${route} as ${w}: ${overflow} px too wide`);
    }
  }
  await testInfo.attach('english-left.json', { body: JSON.stringify(found, null, 2), contentType: 'application/json' });
  const unexpected = Object.fromEntries(Object.entries(found).filter(([route, words]) => words.length > 0 && !(route in STILL_ENGLISH)));
  const gone = Object.keys(STILL_ENGLISH).filter((route) => (found[route] ?? []).length === 0);
  expect(unexpected, 'English words on pages read in Amharic').toEqual({});
  expect(gone, 'No English left on these pages: remove them from STILL_ENGLISH').toEqual([]);
  expect(wide).toEqual([]);

  // The pages this change converted, at 1280 and 390 px, to look at.
  const owner = readers.owner;
  for (const [name, url] of [
    ['settings', '/settings'],
    ['developers', '/developers'],
    ['team', '/team'],
    ['audit', '/audit'],
    ['search', '/search?q=Meron'],
    ['liability', '/reports/liability'],
    ['reconciliation', '/reports/reconciliation'],
    ['not-found', '/no-such-page'],
  ]) {
    await owner.setViewportSize({ width: 1280, height: 900 });
    await owner.goto(`${baseUrl()}${url}`);
    await screenshots(owner, testInfo, `am-${name}`);
  }
  for (const [name, url] of [
    ['forgot', '/forgot'],
    ['reset', '/reset/no-such-token'],
  ]) {
    await readers.public.setViewportSize({ width: 1280, height: 900 });
    await readers.public.goto(`${baseUrl()}${url}`);
    await screenshots(readers.public, testInfo, `am-${name}`);
  }
});
