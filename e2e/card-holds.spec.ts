import { expect, test } from '@playwright/test';
import { formatMoney } from '../components/ui/money';
import { baseUrl, call, expectAccessible, fundedCard, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

test("a till's holds on the card page: the held money beside the balance, each hold in the story with its state", async ({ page }, testInfo) => {
  const biz = await seedBusiness();
  const cardNumber = await fundedCard(biz, 10_000);
  const hold = async (amount: number) => {
    const res = await call('POST', `/api/v1/card/${cardNumber}/holds`, biz.keys.test, { amount, merchant_reference: 'Pump 4' });
    expect(res.status).toBe(201);
    return res.body.data.hold_reference as string;
  };
  const open = await hold(1_500);
  const captured = await hold(3_000);
  const voided = await hold(2_000);
  expect((await call('POST', `/api/v1/card/holds/${captured}/capture`, biz.keys.test, { amount: 2_250 })).status).toBe(200);
  expect((await call('POST', `/api/v1/card/holds/${voided}/void`, biz.keys.test)).status).toBe(200);

  await signIn(page, biz.emails.operator);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${baseUrl()}/cards/${cardNumber}`);
  await expect(page.getByTestId('card-balance')).toHaveText(formatMoney(10_000 - 1_500 - 2_250, 'ETB'));
  await expect(page.getByTestId('card-till-held')).toContainText(`Another ${formatMoney(1_500, 'ETB')} is held by a till`);
  await expect(page.getByTestId('card-held')).toHaveCount(0);

  const placed = page.getByTestId('timeline-entry').filter({ hasText: 'Held by a till' });
  await expect(placed).toHaveCount(3);
  const line = (reference: string) => placed.filter({ hasText: reference });
  await expect(line(open)).toContainText('held');
  await expect(line(open)).toContainText('Not available until the till captures or voids it');
  await expect(line(captured)).toContainText('captured');
  await expect(line(captured)).toContainText(`Captured ETB 22.50`);
  await expect(line(voided)).toContainText('voided');
  await expect(page.getByTestId('timeline-entry').filter({ hasText: 'Hold captured: redeemed at the business' })).toContainText(formatMoney(2_250, 'ETB'));
  await expectAccessible(page);
  await screenshots(page, testInfo, 'card-holds');

  // Voided from the till, the last hold leaves the page with nothing held.
  expect((await call('POST', `/api/v1/card/holds/${open}/void`, biz.keys.test)).status).toBe(200);
  await page.reload();
  await expect(page.getByTestId('card-balance')).toHaveText(formatMoney(10_000 - 2_250, 'ETB'));
  await expect(page.getByTestId('card-till-held')).toHaveCount(0);
  await expect(line(open)).toContainText('voided');
});
