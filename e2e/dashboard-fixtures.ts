import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page, type TestInfo } from '@playwright/test';
import type { AxeResults } from 'axe-core';

export const baseUrl = () => process.env.E2E_BASE_URL!;
const adminToken = () => process.env.E2E_ADMIN_TOKEN!;

export async function call(method: string, path: string, token: string, body?: unknown) {
  const res = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* CSV and other text */
  }
  return { status: res.status, body: parsed, text };
}

const ROLES = ['owner', 'operator', 'finance', 'support'] as const;
type Role = (typeof ROLES)[number];
export const PASSWORD = 'dashboard-pass-123';

export interface SeededBusiness {
  id: number;
  merchantId: string;
  name: string;
  keys: { test: string; live: string };
  emails: Record<Role, string>;
}

/** A fresh business with one user of every role, seeded through the back office API. */
export async function seedBusiness(name = `Shop ${Date.now()}`): Promise<SeededBusiness> {
  const biz = await call('POST', '/api/admin/businesses', adminToken(), { name });
  expect(biz.status).toBe(201);
  const id = biz.body.data.id;
  const emails = {} as Record<Role, string>;
  for (const role of ROLES) {
    emails[role] = `${role}-${id}-${Date.now()}@example.com`;
    const res = await call('POST', `/api/admin/businesses/${id}/users`, adminToken(), { email: emails[role], password: PASSWORD, role });
    expect(res.status).toBe(201);
  }
  return { id, merchantId: biz.body.data.merchant_id, name, keys: biz.body.data.api_keys, emails };
}

export const admin = (method: string, path: string, body?: unknown) => call(method, path, adminToken(), body);

export function randomPhone(): string {
  return `+2519${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
}

/**
 * Signs the page's browser context in over next-auth's HTTP endpoints, as the form's script does, without
 * loading the sign-in page or the Overview it leads to: the page stays where it was, so open one next. Over
 * seventy specs sign in; the form itself is tested through signInWithForm.
 */
export async function signIn(page: Page, email: string, password = PASSWORD, base = baseUrl()) {
  const request = page.context().request;
  const { csrfToken } = await (await request.get(`${base}/api/auth/csrf`)).json();
  const res = await request.post(`${base}/api/auth/callback/credentials`, { form: { csrfToken, email, password, json: 'true' }, maxRedirects: 0 });
  expect(res.status(), `sign-in of ${email}`).toBe(200);
  const cookies = await page.context().cookies(base);
  expect(
    cookies.some((c) => c.name.endsWith('next-auth.session-token') && c.value),
    `session cookie for ${email}`,
  ).toBe(true);
}

/** Through the sign-in form, for the specs about signing in and where it lands. */
export async function signInWithForm(page: Page, email: string, password = PASSWORD) {
  await page.goto(`${baseUrl()}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

/** Opens a dashboard page and waits until its live stream listens, so no update sent after this is missed. */
export async function openListening(page: Page, path: string) {
  await page.goto(`${baseUrl()}${path}`);
  await expect(page.locator('html[data-live="listening"]')).toHaveCount(1, { timeout: 10_000 });
}

/** No serious or critical axe violations on the page as it stands. */
export async function expectAccessible(page: Page) {
  // Next.js streams a page's metadata, and a live refresh (an event arriving) renders the head again: the
  // <title> can be missing for a moment, even just after it was seen. Analyse a page that has its title.
  let violations: AxeResults['violations'];
  for (let attempt = 1; ; attempt++) {
    await expect(page).toHaveTitle(/\S/);
    violations = await axeViolations(page);
    if (attempt === 3 || !violations.some((v) => v.id === 'document-title')) break;
  }
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)).toEqual([]);
}

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe in the page itself, loaded once per document. @axe-core/playwright loaded axe anew for every analysis and
 * finished each in a new tab of its own: 1.3 s for a page of a hundred elements, against 0.2-0.4 s here.
 * Only violations are read: axe then details no passing node.
 */
async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  if (!(await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function'))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResults> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
}

/** Desktop and 390-pixel screenshots of the current page, saved under the test output. */
export async function screenshots(page: Page, testInfo: TestInfo, name: string) {
  const size = page.viewportSize();
  await page.screenshot({ path: testInfo.outputPath(`${name}-desktop.png`), ...(await firstScreens(page)) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath(`${name}-390px.png`), ...(await firstScreens(page)) });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} scrolls sideways at 390 px`).toBeLessThanOrEqual(1);
  if (size) await page.setViewportSize(size);
}

/**
 * The whole page up to 12,000 pixels down. The API reference is 61,000 (102,000 at 390 px): drawn whole it took
 * ten seconds and made an image no one can look at.
 */
async function firstScreens(page: Page) {
  const { width, height } = await page.evaluate(() => ({ width: document.documentElement.clientWidth, height: document.documentElement.scrollHeight }));
  return { fullPage: true, clip: { x: 0, y: 0, width, height: Math.min(height, 12_000) } };
}

/** Clicks the link that downloads a file, and reads it: its suggested name and its text. */
export async function download(page: Page, linkName: string) {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: linkName }).click()]);
  return { filename: file.suggestedFilename(), text: fs.readFileSync((await file.path())!, 'utf8') };
}

/** A new card funded the way a business funds one: a back office deposit, then a ledger top-up settled by the test helper. */
export async function fundedCard(biz: SeededBusiness, amount: number, currency: 'ETB' | 'USD' = 'ETB') {
  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency, first_name: 'Funded', last_name: 'Card' });
  expect(card.status).toBe(201);
  const number = card.body.data.card_number as string;
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency, amount })).status).toBe(200);
  const t = await call('POST', '/api/v1/transfers', biz.keys.test, { amount, bank_slug: 'link', account_number: number, account_name: 'Float' });
  expect(t.status).toBe(200);
  const settled = await call('POST', `/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, biz.keys.test, { status: 'success' });
  expect(settled.status).toBe(200);
  return number;
}
