import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { adminClient, apiClient, createTestBusiness, randomPhone, testDb, type TestBusiness } from '../helpers';
import { getWithSession, signInOverHttp, userOf, PASSWORD } from '../owners-auth-helpers';
import { startTestServer } from '../test-server';

process.env.DATABASE_URL = inject('databaseUrl');

let biz: TestBusiness;
let slug: string;
const anyone = () => apiClient();

const shopSettings = (over: Record<string, unknown> = {}) => ({
  enabled: true,
  mode: 'test',
  slug,
  currency: 'ETB',
  preset_amounts: [50000, 100000],
  min_amount: 10000,
  max_amount: 500000,
  headline: 'Give a coffee',
  color: '#0f766e',
  ...over,
});

const order = (recipientPhone = randomPhone(), over: Record<string, unknown> = {}) => ({
  amount: 50000,
  recipient: { name: 'Hanna Tesfaye', phone_number: recipientPhone },
  message: 'Happy birthday!',
  buyer: { name: 'Abebe Kebede', email: 'abebe@example.com' },
  ...over,
});

async function placeOrder(body: unknown, s = slug) {
  const res = await anyone().post(`/api/shop/${s}/orders`, body);
  return res;
}

const complete = (linkReference: string, status = 'success') => biz.test.post(`/api/v1/test-helpers/payments/${linkReference}/complete`, { status });

async function cardsOf(phone: string, businessId = biz.id) {
  const rows = await testDb().execute<{ card_number: string; balance: string }>(sql`
    SELECT c.card_number, a.balance FROM cards c JOIN customers cu ON cu.id = c.customer_id JOIN ledger_accounts a ON a.id = c.account_id
     WHERE c.business_id = ${businessId} AND cu.phone_number = ${phone}`);
  return rows.rows.map((r) => ({ card_number: r.card_number, balance: Number(r.balance) }));
}

const orderStatus = async (ref: string) => (await anyone().get(`/api/shop/${slug}/orders/${ref}`)).body.data?.status;

beforeAll(async () => {
  biz = await createTestBusiness('Shop owner');
  slug = `shop-${randomBytes(4).toString('hex')}`;
  const res = await adminClient().put(`/api/admin/businesses/${biz.id}/shop`, shopSettings());
  expect(res.status).toBe(200);
  expect(res.body.data).toEqual(shopSettings());
});

describe('the shop set up by the back office', () => {
  it('refuses a slug another shop has (409) and a bad one (400 by field)', async () => {
    const other = await createTestBusiness('Other shop');
    const taken = await adminClient().put(`/api/admin/businesses/${other.id}/shop`, shopSettings());
    expect(taken.status).toBe(409);
    const bad = await adminClient().put(`/api/admin/businesses/${other.id}/shop`, shopSettings({ slug: 'No Caps!', min_amount: 1.5 }));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Validation error');
    expect(Object.keys(bad.body.error)).toEqual(expect.arrayContaining(['slug', 'min_amount']));
  });
});

describe('an order on the shop', () => {
  it('is paid through the sandbox: the card is issued and credited once, the order paid, order.paid written, the message kept', async () => {
    const phone = randomPhone();
    const res = await placeOrder(order(phone));
    expect(res.status).toBe(201);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const data = res.body.data;
    expect(data).toEqual({
      order_reference: expect.stringMatching(/^ord_[0-9A-Za-z]{24}$/),
      status: 'pending',
      amount: 50000,
      currency: 'ETB',
      checkout_url: expect.stringContaining(`/checkout/${data.link_reference}`),
      link_reference: expect.stringMatching(/^pay_/),
    });
    // Nothing is issued before the payment.
    expect(await cardsOf(phone)).toEqual([]);
    expect(await orderStatus(data.order_reference)).toBe('pending');

    expect((await complete(data.link_reference)).status).toBe(200);
    expect(await orderStatus(data.order_reference)).toBe('paid');
    const cards = await cardsOf(phone);
    expect(cards).toHaveLength(1);
    expect(cards[0].balance).toBe(50000);
    // A second confirmation changes nothing.
    expect((await complete(data.link_reference)).status).toBe(200);
    expect(await cardsOf(phone)).toEqual(cards);

    const events = await testDb().execute<{ type: string; body: string }>(sql`
      SELECT type, body FROM webhook_events WHERE business_id = ${biz.id} AND subject_reference IN (${data.order_reference}, ${data.link_reference}) ORDER BY id`);
    expect(events.rows.map((e) => e.type)).toEqual(['payment.success', 'order.paid']);
    expect(JSON.parse(events.rows[1].body)).toMatchObject({
      event: 'order.paid',
      order_reference: data.order_reference,
      card_number: cards[0].card_number,
      amount: 50000,
      recipient: { name: 'Hanna Tesfaye', phone_number: phone },
      buyer: { name: 'Abebe Kebede' },
    });
    const stored = await testDb().execute<{ message: string; card_number: string }>(sql`
      SELECT o.message, c.card_number FROM shop_orders o JOIN cards c ON c.id = o.card_id WHERE o.reference = ${data.order_reference}`);
    expect(stored.rows[0]).toEqual({ message: 'Happy birthday!', card_number: cards[0].card_number });
    // The card has a live link made for the recipient's message.
    const links = await testDb().execute(
      sql`SELECT 1 FROM card_links l JOIN cards c ON c.id = l.card_id WHERE c.card_number = ${cards[0].card_number} AND l.ended_at IS NULL`,
    );
    expect(links.rows).toHaveLength(1);
    // The recipient is sent the card's link once, by SMS; test mode records it and sends nothing.
    const messages = await testDb().execute<{ kind: string; channel: string; to_address: string; link_url: string }>(sql`
      SELECT m.kind, m.channel, m.to_address, m.facts->>'link_url' AS link_url FROM cardholder_messages m JOIN cards c ON c.id = m.card_id
       WHERE c.card_number = ${cards[0].card_number}`);
    expect(messages.rows).toEqual([{ kind: 'card_issued', channel: 'sms', to_address: phone, link_url: expect.stringMatching(/\/c\/[0-9A-Za-z]{43}$/) }]);
    // The recipient opens it and sees the card's balance.
    const cardPage = await anyone().get(new URL(messages.rows[0].link_url).pathname);
    expect(cardPage.status).toBe(200);
    expect(String(cardPage.body)).toContain('500.00');
  });

  it('to the same recipient again tops up the same card', async () => {
    const phone = randomPhone();
    for (const amount of [50000, 20000]) {
      const { body } = await placeOrder(order(phone, { amount }));
      expect((await complete(body.data.link_reference)).status).toBe(200);
    }
    const cards = await cardsOf(phone);
    expect(cards).toHaveLength(1);
    expect(cards[0].balance).toBe(70000);
  });

  it('is refused before payment to a phone whose card here is disabled or expired: the gift would land where it cannot be spent', async () => {
    for (const end of ['disabled', 'expired'] as const) {
      const phone = randomPhone();
      const { body } = await placeOrder(order(phone, { amount: 20000 }));
      expect((await complete(body.data.link_reference)).status).toBe(200);
      const [card] = await cardsOf(phone);
      if (end === 'disabled') expect((await biz.test.patch(`/api/v1/card/${card.card_number}`, { status: 'disable' })).status).toBe(200);
      else await testDb().execute(sql`UPDATE cards SET expires_at = now() - interval '1 second' WHERE card_number = ${card.card_number}`);
      const refused = await placeOrder(order(phone, { amount: 20000 }));
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(Object.keys(refused.body.error)).toEqual(['recipient.phone_number']);
      expect(await cardsOf(phone)).toEqual([{ card_number: card.card_number, balance: 20000 }]);
    }
  });

  it('whose payment fails issues nothing and reads failed', async () => {
    const phone = randomPhone();
    const { body } = await placeOrder(order(phone));
    expect((await complete(body.data.link_reference, 'failed')).status).toBe(200);
    expect(await orderStatus(body.data.order_reference)).toBe('failed');
    expect(await cardsOf(phone)).toEqual([]);
    const events = await testDb().execute(sql`SELECT 1 FROM webhook_events WHERE type = 'order.paid' AND subject_reference = ${body.data.order_reference}`);
    expect(events.rows).toHaveLength(0);
  });

  it('confirmed twice at once credits once', async () => {
    const phone = randomPhone();
    const { body } = await placeOrder(order(phone));
    const answers = await Promise.all(Array.from({ length: 6 }, () => complete(body.data.link_reference)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    const cards = await cardsOf(phone);
    expect(cards).toHaveLength(1);
    expect(cards[0].balance).toBe(50000);
    const events = await testDb().execute(sql`SELECT 1 FROM webhook_events WHERE type = 'order.paid' AND subject_reference = ${body.data.order_reference}`);
    expect(events.rows).toHaveLength(1);
  });

  it('two orders for one new recipient paid at once issue one card and credit both', async () => {
    const phone = randomPhone();
    const placed = await Promise.all([placeOrder(order(phone)), placeOrder(order(phone, { amount: 30000 }))]);
    await Promise.all(placed.map((p) => complete(p.body.data.link_reference)));
    const cards = await cardsOf(phone);
    expect(cards).toHaveLength(1);
    expect(cards[0].balance).toBe(80000);
  });

  it('is refused before payment when it would take the card past max_card_balance; one that no longer fits is refunded and failed', async () => {
    const limited = await createTestBusiness('Limited shop');
    const limitedSlug = `lim-${randomBytes(4).toString('hex')}`;
    expect((await adminClient().put(`/api/admin/businesses/${limited.id}/shop`, shopSettings({ slug: limitedSlug }))).status).toBe(200);
    expect((await adminClient().put(`/api/admin/businesses/${limited.id}/limits`, { mode: 'test', currency: 'ETB', max_card_balance: 80000 })).status).toBe(
      200,
    );
    const phone = randomPhone();
    const first = await placeOrder(order(phone), limitedSlug);
    expect(first.status).toBe(201);
    // The first is still awaiting payment: it counts.
    const refused = await placeOrder(order(phone, { amount: 40000 }), limitedSlug);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Limit exceeded');
    const payments = await testDb().execute(sql`SELECT 1 FROM payments WHERE business_id = ${limited.id}`);
    expect(payments.rows).toHaveLength(1);

    // The card grows meanwhile past what the order leaves room for: the paid order is refunded and failed.
    const pending = await placeOrder(order(phone, { amount: 20000 }), limitedSlug);
    expect(pending.status).toBe(201);
    const paid = await limited.test.post(`/api/v1/test-helpers/payments/${first.body.data.link_reference}/complete`, { status: 'success' });
    expect(paid.body).toMatchObject({ status: 'success' });
    const cardNumber = (await cardsOf(phone, limited.id))[0].card_number;
    expect((await limited.test.post('/api/v1/card/payments', { type: 'hosted', amount: 30000, card_number: cardNumber })).status).toBe(201);
    const topUp = await testDb().execute<{ link_reference: string }>(sql`
      SELECT link_reference FROM payments WHERE card_number = ${cardNumber} AND merchant_reference IS NULL`);
    await limited.test.post(`/api/v1/test-helpers/payments/${topUp.rows[0].link_reference}/complete`, { status: 'success' });
    await limited.test.post(`/api/v1/test-helpers/payments/${pending.body.data.link_reference}/complete`, { status: 'success' });
    const failed = await testDb().execute<{ status: string; failure_reason: string; refunded_amount: string }>(sql`
      SELECT o.status, o.failure_reason, p.refunded_amount FROM shop_orders o JOIN payments p ON p.id = o.payment_id WHERE o.reference = ${pending.body.data.order_reference}`);
    expect(failed.rows[0]).toMatchObject({ status: 'failed', refunded_amount: 20000 });
    expect(failed.rows[0].failure_reason).toContain('refunded');
    expect((await cardsOf(phone, limited.id))[0].balance).toBe(80000);
  });

  it('answers bad input with 400 keyed by field, changing nothing', async () => {
    const before = await testDb().execute(sql`SELECT count(*)::int AS n FROM shop_orders WHERE business_id = ${biz.id}`);
    const res = await placeOrder({ amount: 5, recipient: { name: '', phone_number: '0911' }, message: 'x'.repeat(201), buyer: { name: 'B' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Validation error');
    expect(Object.keys(res.body.error)).toEqual(expect.arrayContaining(['recipient.name', 'message']));
    const noContact = await placeOrder(order(randomPhone(), { buyer: { name: 'B' } }));
    expect(noContact.body.error).toEqual({ buyer: expect.any(String) });
    const outOfRange = await placeOrder(order(randomPhone(), { amount: 600000 }));
    expect(Object.keys(outOfRange.body.error)).toEqual(['amount']);
    const badPhone = await placeOrder(order('0911234567'));
    expect(Object.keys(badPhone.body.error)).toEqual(['recipient.phone_number']);
    const after = await testDb().execute(sql`SELECT count(*)::int AS n FROM shop_orders WHERE business_id = ${biz.id}`);
    expect(after.rows).toEqual(before.rows);
  });

  it('is 404 on a shop that is off or unknown, and an order reference of another shop is 404', async () => {
    const off = await createTestBusiness('Closed shop');
    const offSlug = `off-${randomBytes(4).toString('hex')}`;
    await adminClient().put(`/api/admin/businesses/${off.id}/shop`, shopSettings({ slug: offSlug, enabled: false }));
    expect((await placeOrder(order(), offSlug)).status).toBe(404);
    expect((await placeOrder(order(), 'nobody-here')).status).toBe(404);
    expect((await anyone().get('/shop/nobody-here')).status).toBe(404);
    expect((await anyone().get(`/shop/${offSlug}`)).status).toBe(404);
    const { body } = await placeOrder(order());
    expect((await anyone().get(`/api/shop/${offSlug}/orders/${body.data.order_reference}`)).status).toBe(404);
    expect((await anyone().get(`/api/shop/${slug}/orders/ord_${'A'.repeat(24)}`)).status).toBe(404);
  });
});

describe('the shop page', () => {
  it('shows a <script> message as text, says it is in test mode, and sends no referrer', async () => {
    const res = await anyone().get(`/shop/${slug}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(String(res.body)).toContain('data-testid="test-mode"');
  });

  it('speaks its business’s customer language, or what ?lang asks, whatever the browser', async () => {
    const lang = async (path: string) => /<html[^>]* lang="(\w+)"/.exec(String((await anyone().get(path, { headers: { 'accept-language': 'en' } })).body))?.[1];
    expect(await lang(`/shop/${slug}`)).toBe('en');
    expect((await adminClient().put(`/api/admin/businesses/${biz.id}/locale`, { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(200);
    try {
      expect(await lang(`/shop/${slug}`)).toBe('am');
      expect(await lang(`/shop/${slug}?lang=en`)).toBe('en');
      const { body } = await placeOrder(order());
      expect(await lang(`/shop/${slug}/orders/${body.data.order_reference}`)).toBe('am');
    } finally {
      await adminClient().put(`/api/admin/businesses/${biz.id}/locale`, { customer_language: 'en', calendar: 'gregorian' });
    }
  });
});

describe('the business reads its orders', () => {
  it('through GET /api/v1/shop/orders (scope read), found by either phone, and on its dashboard with a <script> message shown as text, and as CSV', async () => {
    const recipient = randomPhone();
    const buyer = randomPhone();
    const script = '<script>alert("x")</script> https://evil.example';
    const { body } = await placeOrder(order(recipient, { message: script, buyer: { name: 'Sara Bekele', phone_number: buyer } }));
    await complete(body.data.link_reference);

    const byRecipient = await biz.test.typed.listShopOrders({ phone: `0${recipient.slice(4)}` });
    expect(byRecipient.status).toBe('success');
    const found = byRecipient.status === 'success' ? byRecipient.data : undefined;
    expect(found?.items.map((o) => o.order_reference)).toEqual([body.data.order_reference]);
    expect(found?.items[0]).toMatchObject({ status: 'paid', message: script, buyer: { name: 'Sara Bekele', phone_number: buyer }, amount: 50000 });
    const byBuyer = await biz.test.get(`/api/v1/shop/orders?phone=${encodeURIComponent(buyer)}`);
    expect(byBuyer.body.data.items.map((o: { order_reference: string }) => o.order_reference)).toEqual([body.data.order_reference]);
    // Another business sees none of them.
    const other = await createTestBusiness('Not the shop');
    expect((await other.test.get('/api/v1/shop/orders')).body.data.total).toBe(0);

    const owner = await userOf(biz.id, 'owner');
    const { cookie } = await signInOverHttp(owner.email, PASSWORD);
    const page = await getWithSession(`/shop-orders/${body.data.order_reference}`, cookie!);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('<script>alert');
    expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(page.text).not.toContain('href="https://evil.example');
    const list = await getWithSession(`/shop-orders?phone=${encodeURIComponent(buyer)}`, cookie!);
    expect(list.text).toContain(`/shop-orders/${body.data.order_reference}`);
    const csv = await getWithSession(`/shop-orders/export?phone=${encodeURIComponent(recipient)}`, cookie!);
    expect(csv.status).toBe(200);
    const lines = csv.text.trim().split('\n');
    expect(lines[0]).toContain('order_reference,status,currency,amount');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(body.data.order_reference);
  });
});

describe('rate limits', () => {
  it('refuse the 21st order from an address in 10 minutes and the 6th for a recipient in an hour, 429 with Retry-After, after the shop is found', async () => {
    const server = await startTestServer({
      databaseUrl: inject('databaseUrl'),
      adminToken: inject('adminToken'),
      loops: [],
      env: { SHOP_ORDERS_PER_ADDRESS: '20', SHOP_ORDER_READS_PER_MINUTE: '3' },
    });
    try {
      const own = apiClient(undefined, server.baseUrl);
      const recipient = randomPhone();
      const answers: number[] = [];
      for (let i = 0; i < 5; i++) answers.push((await own.post(`/api/shop/${slug}/orders`, order(recipient))).status);
      const sixth = await own.post(`/api/shop/${slug}/orders`, order(recipient));
      expect(answers).toEqual(Array(5).fill(201));
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
      for (let i = 0; i < 14; i++) answers.push((await own.post(`/api/shop/${slug}/orders`, order())).status);
      expect(answers.slice(5)).toEqual(Array(14).fill(201));
      expect((await own.post('/api/shop/nobody-here/orders', order())).status).toBe(404);
      const over = await own.post(`/api/shop/${slug}/orders`, order());
      expect(over.status).toBe(429);
      expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
      // Looking orders up is limited too (SHOP_ORDER_READS_PER_MINUTE, 3 on this server).
      const lookups = [];
      for (let i = 0; i < 4; i++) lookups.push((await own.get(`/api/shop/${slug}/orders/ord_${'B'.repeat(24)}`)).status);
      expect(lookups).toEqual([404, 404, 404, 429]);
    } finally {
      await server.stop();
    }
  });
});
