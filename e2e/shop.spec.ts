import { expect, test } from '@playwright/test';
import { formatMoney } from '../components/ui/money';
import { admin, baseUrl, call, randomPhone, screenshots, seedBusiness, signIn } from './dashboard-fixtures';

test('a buyer on a phone buys a card for someone; the owner sees the order with its message as text and refunds it', async ({ browser, page }, testInfo) => {
  const biz = await seedBusiness(`Buna Café ${Date.now()}`);
  const slug = `buna-${Date.now().toString(36)}`;
  const shop = await admin('PUT', `/api/admin/businesses/${biz.id}/shop`, {
    enabled: true,
    mode: 'test',
    slug,
    currency: 'ETB',
    preset_amounts: [25_000, 50_000, 100_000],
    min_amount: 10_000,
    max_amount: 500_000,
    headline: 'Give someone a coffee on us',
    color: '#7c2d12',
  });
  expect(shop.status).toBe(200);

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const buyer = await phone.newPage();
  await buyer.goto(`${baseUrl()}/shop/${slug}`);
  await expect(buyer.getByTestId('test-mode')).toBeVisible();
  await expect(buyer.getByTestId('shop-name')).toHaveText(biz.name);
  await buyer.getByText(formatMoney(50_000, 'ETB')).click();
  const recipient = randomPhone();
  await buyer.getByLabel('Their name').fill('Hanna Tesfaye');
  await buyer.getByLabel('Their phone number').fill(recipient);
  await buyer.getByLabel('Your message (optional)').fill('<script>alert(1)</script> Happy birthday! https://example.com');
  await buyer.getByLabel('Your name').fill('Abebe Kebede');
  await buyer.getByLabel('Your phone number or email').fill('abebe@example.com');
  await buyer.screenshot({ path: testInfo.outputPath('shop-form-390px.png'), fullPage: true });
  expect(await buyer.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(1);
  await buyer.getByRole('button', { name: 'Continue to payment' }).click();

  await expect(buyer).toHaveURL(/\/checkout\/pay_/);
  // The checkout says nothing of the card the gift lands on: it is the recipient's.
  await expect(buyer.getByTestId('total')).toBeVisible();
  await expect(buyer.getByTestId('card-last-four')).toHaveCount(0);
  await buyer.getByRole('button', { name: /^Pay .* \(test\)$/ }).click();
  await expect(buyer.getByTestId('back-to-shop')).toBeVisible();
  await expect(buyer.getByTestId('card-last-four')).toHaveCount(0);
  await buyer.screenshot({ path: testInfo.outputPath('shop-checkout-paid-390px.png'), fullPage: true });
  await buyer.getByTestId('back-to-shop').click();
  await expect(buyer.getByTestId('order-status')).toHaveAttribute('data-status', 'paid');
  await expect(buyer.getByTestId('test-mode')).toBeVisible();
  await buyer.screenshot({ path: testInfo.outputPath('shop-thanks-390px.png'), fullPage: true });
  await phone.close();

  const orders = await call('GET', `/api/v1/shop/orders?phone=${encodeURIComponent(recipient)}`, biz.keys.test);
  expect(orders.body.data.items).toHaveLength(1);
  const order = orders.body.data.items[0];
  expect(order).toMatchObject({ status: 'paid', amount: 50_000, recipient: { name: 'Hanna Tesfaye' } });
  const card = await call('GET', `/api/v1/card/${order.card_number}`, biz.keys.test);
  expect(card.body.data.available_amount).toBe(50_000);

  // The recipient's one message, the gift, is recorded (test mode sends nothing): the buyer's name and message and the
  // card's link. They open the link on their phone and see the balance and the buyer's message whole, as text.
  const typed = '<script>alert(1)</script> Happy birthday! https://example.com';
  let gift = { kind: '', text: '' };
  await expect
    .poll(async () => {
      const items = (await call('GET', `/api/v1/card/${order.card_number}/messages`, biz.keys.test)).body.data.items;
      gift = items[0] ?? gift;
      return items.map((m: { kind: string; status: string }) => `${m.kind}:${m.status}`);
    })
    .toEqual(['gift_received:not_sent_test_mode']);
  expect(gift.text).toContain(`Abebe Kebede sent you a gift card of ${formatMoney(50_000, 'ETB').replace(/\s/g, ' ')}. "${typed}"`);
  const recipientPhone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
  const holder = await recipientPhone.newPage();
  await holder.goto(gift.text.match(/https?:\/\/\S+\/c\/[0-9A-Za-z]{43}/)![0]);
  await expect(holder.getByTestId('card-balance')).toHaveText(formatMoney(50_000, 'ETB'));
  await expect(holder.getByTestId('card-gift')).toHaveCount(1);
  await expect(holder.getByTestId('card-gift')).toContainText('From Abebe Kebede');
  await expect(holder.getByTestId('card-gift-message')).toHaveText(typed);
  await expect(holder.getByTestId('card-gifts').getByRole('link')).toHaveCount(0);
  expect(await holder.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(1);
  await holder.screenshot({ path: testInfo.outputPath('recipient-card-390px.png'), fullPage: true });
  await recipientPhone.close();

  await signIn(page, biz.emails.owner);
  await page.goto(`${baseUrl()}/shop-orders`);
  await expect(page.getByTestId('shop-order-row')).toHaveCount(1);
  await expect(page.getByTestId('shop-order-row')).toContainText('Hanna Tesfaye');
  await screenshots(page, testInfo, 'shop-orders');
  await page.getByTestId('shop-order-row').getByRole('link').click();
  await expect(page.getByTestId('order-message')).toHaveText('<script>alert(1)</script> Happy birthday! https://example.com');
  await expect(page.getByTestId('order-message').getByRole('link')).toHaveCount(0);
  await expect(page.getByTestId('order-card')).toHaveText(order.card_number);
  // The order's two messages with what became of them: the gift to the recipient and the receipt to the buyer's email.
  await expect(page.getByTestId('order-message-gift_received')).toContainText('Not sent (test mode)');
  await expect(page.getByTestId('order-message-order_receipt')).toContainText('a***@example.com');
  await expect(page.getByTestId('order-message-order_receipt')).toContainText(order.order_reference);
  await screenshots(page, testInfo, 'shop-order');

  await page.getByTestId('refund-order').getByRole('link').click();
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('button', { name: `Refund ${formatMoney(50_000, 'ETB')}` }).click();
  await expect(page.getByTestId('refund-outcome')).toContainText(`${formatMoney(50_000, 'ETB')} refunded`);
  expect((await call('GET', `/api/v1/card/${order.card_number}`, biz.keys.test)).body.data.available_amount).toBe(0);
  await page.goto(`${baseUrl()}/shop-orders/${order.order_reference}`);
  await expect(page.getByTestId('order-refunded')).toContainText(formatMoney(50_000, 'ETB'));

  const amharic = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'am-ET' });
  const reader = await amharic.newPage();
  // The shop speaks its business's language (English here); a reader of Amharic takes the switch.
  await reader.goto(`${baseUrl()}/shop/${slug}`);
  await reader.getByTestId('language-switch').getByRole('link', { name: 'አማርኛ' }).click();
  await expect(reader).toHaveURL(/\?lang=am/);
  await expect(reader.getByRole('button', { name: 'ወደ ክፍያ ይቀጥሉ' })).toBeVisible();
  await expect(reader.getByTestId('test-mode')).toContainText('የሙከራ ሱቅ');
  await reader.screenshot({ path: testInfo.outputPath('shop-form-am-390px.png'), fullPage: true });
  await amharic.close();

  await page.goto(`${baseUrl()}/settings`);
  await expect(page.getByTestId('shop-preview')).toContainText('Give someone a coffee on us');
  await screenshots(page, testInfo, 'shop-settings');
});
