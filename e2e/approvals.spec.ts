import { type Browser, expect, type Page, test } from '@playwright/test';
import { admin, baseUrl, call, expectAccessible, fundedCard, randomPhone, screenshots, seedBusiness, type SeededBusiness, signIn } from './dashboard-fixtures';

let biz: SeededBusiness;
let source: string;
let destination: string;

const cardOf = async (n: string) => (await call('GET', `/api/v1/card/${n}`, biz.keys.test)).body.data as { available_amount: number; held_amount: number };

async function as(browser: Browser, role: keyof SeededBusiness['emails']): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, biz.emails[role]);
  return page;
}

/** The operator sends a card-to-card payout from the form and confirms it; at or above the threshold it lands on the queue. */
async function sendPayout(page: Page, units: string) {
  await page.goto(`${baseUrl()}/payouts/new?card=${source}`);
  await page.getByLabel('Destination card number').fill(destination);
  await expect(page.getByTestId('recipient-card')).toContainText(`card ending ${destination.slice(-4)}`);
  await page.getByLabel(/^Amount/).fill(units);
  await expect(page.getByTestId('preview-debit')).toHaveText(new RegExp(units.replace('.', '\\.')));
  await page.getByRole('button', { name: 'Send payout' }).click();
  await page
    .getByRole('dialog', { name: 'Send to this card?' })
    .getByRole('button', { name: /^Send ETB/ })
    .click();
  await expect(page).toHaveURL(/\/approvals\?requested=apr_/);
  return new URL(page.url()).searchParams.get('requested')!;
}

const request = (page: Page, reference: string) => page.locator(`[data-testid="approval-request"][data-reference="${reference}"]`);

test.beforeAll(async () => {
  biz = await seedBusiness(`Approvals ${Date.now()}`);
  source = await fundedCard(biz, 500_000);
  const other = await call('POST', '/api/v1/card', biz.keys.test, { phone_number: randomPhone(), currency: 'ETB', first_name: 'Dest', last_name: 'Card' });
  destination = other.body.data.card_number;
  // The business account pays adjustments that add to a card.
  expect((await admin('POST', `/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 100_000 })).status).toBe(200);
});

test('owner sets a threshold; operator sends over it; finance approves; owner rejects another; operator adjusts; finance approves', async ({
  browser,
}, testInfo) => {
  // Three teammates' sessions and ten page loads: longer than one page's flow on a shared 2-core machine.
  test.setTimeout(180_000);
  const owner = await as(browser, 'owner');
  await owner.goto(`${baseUrl()}/approvals`);
  await owner.getByLabel('ETB', { exact: true }).fill('500');
  await owner.getByRole('button', { name: 'Save ETB' }).click();
  await expect(owner.getByText('Saved: payouts of ETB 500.00 or more wait for approval.')).toBeVisible();

  // Below the threshold a payout goes at once; at 600 it waits, its money held on the card.
  const operator = await as(browser, 'operator');
  const first = await sendPayout(operator, '600');
  await expect(operator.getByTestId('sent-for-approval')).toContainText('Sent for approval: card-to-card payout to card ending');
  await expect(operator.getByTestId('sent-for-approval')).toContainText('ETB 600.00 is held on the card');
  // The request just made is counted in the maker's menu at once.
  await expect(operator.getByRole('navigation', { name: 'Main' }).getByTestId('nav-count')).toHaveText('1 waiting');
  expect(await cardOf(source)).toEqual(expect.objectContaining({ available_amount: 440_000, held_amount: 60_000 }));
  // The maker sees their own request without an Approve button.
  await expect(request(operator, first)).toContainText('You asked for this');
  await expect(request(operator, first).getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expectAccessible(operator);
  await screenshots(operator, testInfo, 'approvals-sent');
  await operator.goto(`${baseUrl()}/cards/${source}`);
  await expect(operator.getByTestId('card-balance')).toHaveText('ETB 4,400.00');
  await expect(operator.getByTestId('card-held')).toContainText('Another ETB 600.00 is held until a teammate decides on it');
  await screenshots(operator, testInfo, 'card-held');

  const finance = await as(browser, 'finance');
  await finance.goto(`${baseUrl()}/approvals`);
  const waiting = request(finance, first);
  await expect(waiting).toContainText(biz.emails.operator);
  await expect(waiting.getByTestId('approval-amount')).toHaveText('ETB 600.00');
  // The menu says how many wait, so a teammate sees it from any page.
  await expect(finance.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals 1 waiting' })).toBeVisible();
  await expectAccessible(finance);
  await screenshots(finance, testInfo, 'approvals-queue');
  await waiting.getByRole('button', { name: 'Approve' }).click();
  await expect(finance.getByTestId('decision-outcome')).toHaveText(/^Approved: done as c2c_/);
  await expect.poll(async () => (await cardOf(destination)).available_amount).toBe(60_000);
  expect(await cardOf(source)).toEqual(expect.objectContaining({ available_amount: 440_000, held_amount: 0 }));
  // The decision took the count off the menu without a reload.
  await expect(finance.getByRole('navigation', { name: 'Main' }).getByTestId('nav-count')).toHaveCount(0);
  await finance.goto(`${baseUrl()}/`);
  await expect(finance.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Approvals', exact: true })).toBeVisible();

  // Another one, rejected by the owner with a note: the money comes back.
  const second = await sendPayout(operator, '700');
  expect((await cardOf(source)).held_amount).toBe(70_000);
  await owner.goto(`${baseUrl()}/approvals`);
  await request(owner, second).getByLabel(`Note for ${second}`).fill('Not agreed with the customer');
  await request(owner, second).getByRole('button', { name: 'Reject' }).click();
  await expect(owner.getByTestId('decision-outcome')).toHaveText('Rejected: its money was released.');
  expect(await cardOf(source)).toEqual(expect.objectContaining({ available_amount: 440_000, held_amount: 0 }));

  // A goodwill adjustment from the card page waits too, and finance approves it.
  await operator.goto(`${baseUrl()}/cards/${source}`);
  await operator.getByLabel('Adjust by (ETB)').fill('25');
  await operator.getByLabel('Reason', { exact: true }).selectOption('goodwill');
  await operator.getByLabel('Note', { exact: true }).fill('Late delivery');
  await operator.getByRole('button', { name: 'Send for approval' }).click();
  await expect(operator.getByTestId('adjustment-outcome')).toContainText('Sent for approval: add ETB 25.00');
  await expectAccessible(operator);
  await screenshots(operator, testInfo, 'card-adjustment');

  await finance.goto(`${baseUrl()}/approvals`);
  const adjustment = finance.getByTestId('approval-request').filter({ hasText: 'Adjustment: add to the card' });
  await expect(adjustment).toContainText('Goodwill: Late delivery');
  await adjustment.getByRole('button', { name: 'Approve' }).click();
  await expect(finance.getByTestId('decision-outcome')).toHaveText(/^Approved: done as apr_/);
  expect((await cardOf(source)).available_amount).toBe(442_500);

  // The history tab shows each decision; the card's story tells them.
  await finance.goto(`${baseUrl()}/approvals?view=decided`);
  await expect(request(finance, second).getByTestId('approval-status')).toHaveText('rejected');
  await expect(request(finance, second)).toContainText('Not agreed with the customer');
  await expect(request(finance, first).getByTestId('approval-status')).toHaveText('approved');
  await expectAccessible(finance);
  await screenshots(finance, testInfo, 'approvals-history');
  await finance.goto(`${baseUrl()}/cards/${source}`);
  const story = finance.getByTestId('card-story');
  await expect(story).toContainText('Payout rejected');
  await expect(story).toContainText('Adjustment (add to the card) approved');
  await expect(story).toContainText('Adjustment: added by the business');
  await screenshots(finance, testInfo, 'card-story-approvals');
});
