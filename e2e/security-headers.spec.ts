import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { baseUrl, call, randomPhone, seedBusiness, signIn } from './dashboard-fixtures';

test('pages run under their Content-Security-Policy with no violation, and the checkout cannot be framed', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  const biz = await seedBusiness();
  // Signing in and moving between pages needs hydrated React: blocked scripts would stop it here.
  await signIn(page, biz.emails.operator);
  await page.goto(`${baseUrl()}/cards`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.goto(`${baseUrl()}/docs`);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();

  const card = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Frame', last_name: 'Test' });
  const link = await call('POST', '/api/v1/card/payments', biz.keys.test, { type: 'hosted', amount: 5_000, card_number: card.body.data.card_number });
  const checkoutUrl = link.body.data.checkout_url as string;
  await page.goto(checkoutUrl);
  await expect(page.getByRole('button', { name: /pay/i }).first()).toBeVisible();
  expect(violations).toEqual([]);

  // Another site (another origin: its own port on this machine) framing the checkout, the click-through
  // attack, gets an empty frame; its own page, framed beside it, shows.
  const site = http.createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(
      req.url === '/own' ? '<button>Own button</button>' : `<iframe name="checkout" src="${checkoutUrl}"></iframe><iframe name="own" src="/own"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  try {
    const framed = await page.context().newPage();
    await framed.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    await expect(framed.frameLocator('iframe[name="own"]').getByRole('button', { name: 'Own button' })).toBeVisible();
    // goto waited for the framing page's load, which waits for both frames: the checkout one has been refused or drawn by now.
    expect(await framed.frame({ name: 'checkout' })!.locator('button').count()).toBe(0);
  } finally {
    site.close();
  }
});
