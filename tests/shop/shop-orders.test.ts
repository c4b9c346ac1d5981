import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { adminClient, apiClient, createTestBusiness, randomPhone, testDb, type TestBusiness } from '../helpers';
import { getWithSession, signInOverHttp, userOf, PASSWORD } from '../owners-auth-helpers';
import { startTestServer } from '../test-server';
import { issueCardIn } from '../../lib/cards/create-card';
import { messageKindSettings, setMessageKinds } from '../../lib/messages/message-kind-settings';
import { isOrderKind, SWITCHABLE_MESSAGE_KINDS } from '../../lib/messages/message-kinds';
import { smsParts } from '../../lib/messages/sms-parts';

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

/** The order's messages once the job has recorded `count` of them (test mode sends nothing), gift first. */
async function settledOrderMessages(orderReference: string, count: number) {
  const read = async () =>
    (
      await testDb().execute<{
        kind: string;
        channel: string;
        to_address: string;
        card_number: string | null;
        status: string;
        link_url: string | null;
        text: string | null;
      }>(sql`
        SELECT m.kind, m.channel, m.to_address, c.card_number, m.status, m.facts->>'link_url' AS link_url, m.text
          FROM cardholder_messages m JOIN shop_orders o ON o.id = m.order_id LEFT JOIN cards c ON c.id = m.card_id
         WHERE o.reference = ${orderReference} ORDER BY m.kind`)
    ).rows;
  await expect.poll(async () => (await read()).map((m) => m.status), { timeout: 15_000 }).toEqual(Array(count).fill('not_sent_test_mode'));
  return read();
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
    // The recipient gets one message for the order, the gift, by SMS, and the buyer one receipt, by the email they
    // gave, a message of the order and of no card; nothing else (no card_issued, no money_added). Test mode records them.
    const messages = await settledOrderMessages(data.order_reference, 2);
    expect(messages).toEqual([
      {
        kind: 'gift_received',
        channel: 'sms',
        to_address: phone,
        card_number: cards[0].card_number,
        status: 'not_sent_test_mode',
        link_url: expect.stringMatching(/\/c\/[0-9A-Za-z]{43}$/),
        text: expect.any(String),
      },
      {
        kind: 'order_receipt',
        channel: 'email',
        to_address: 'abebe@example.com',
        card_number: null,
        status: 'not_sent_test_mode',
        link_url: null,
        text: expect.any(String),
      },
    ]);
    const ofCard = await testDb().execute(
      sql`SELECT kind FROM cardholder_messages m JOIN cards c ON c.id = m.card_id WHERE c.card_number = ${cards[0].card_number}`,
    );
    expect(ofCard.rows).toEqual([{ kind: 'gift_received' }]);
    expect(messages[0].text).toBe(
      `Shop owner: Abebe Kebede sent you a gift card of ETB 500.00. "Happy birthday!" See it and spend it here: ${messages[0].link_url}`,
    );
    expect(messages[1].text).toContain(data.order_reference);
    expect(messages[1].text).not.toContain(cards[0].card_number.slice(-4));
    // The card issued by the shop has its messages on, as a card issued with notify.
    const on = await testDb().execute(sql`SELECT messages_on FROM cards WHERE card_number = ${cards[0].card_number}`);
    expect(on.rows).toEqual([{ messages_on: true }]);
    // The recipient opens it and sees the card's balance, and the buyer's message.
    const cardPage = await anyone().get(new URL(messages[0].link_url!).pathname);
    expect(cardPage.status).toBe(200);
    expect(String(cardPage.body)).toContain('500.00');
    expect(String(cardPage.body)).toContain('Happy birthday!');
    // The buyer's checkout never said which card: it is the recipient's.
    const checkout = String((await anyone().get(`/checkout/${data.link_reference}`)).body);
    expect(checkout).toContain('data-testid="total"');
    expect(checkout).not.toContain('card-last-four');
    expect(checkout).not.toContain(cards[0].card_number.slice(-4));
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
    // The buyer pays a 2% fee on top of the amount.
    expect(
      (await adminClient().put(`/api/admin/businesses/${limited.id}/fees`, { mode: 'test', rules: [{ applies_to: 'payment', percent: '2' }] })).status,
    ).toBe(200);
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
    // The buyer gets all they paid back, the fee included: the amount from the business account (where the payment
    // landed), the fee from the fee revenue that took it. The business ends where it was; so does the fee revenue.
    const moves = await testDb().execute<{ kind: string; ref_kind: string; amount: number }>(sql`
      SELECT a.kind, t.kind AS ref_kind, sum(e.amount)::int AS amount
        FROM payments p JOIN ledger_transactions t ON t.reference = p.link_reference OR t.reference IN (SELECT reference FROM refunds WHERE payment_id = p.id)
        JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
       WHERE p.link_reference = ${pending.body.data.link_reference}
       GROUP BY a.kind, t.kind ORDER BY t.kind, a.kind`);
    expect(moves.rows).toEqual([
      { kind: 'business', ref_kind: 'payment', amount: 20000 },
      { kind: 'clearing', ref_kind: 'payment', amount: -20400 },
      { kind: 'fee_revenue', ref_kind: 'payment', amount: 400 },
      { kind: 'business', ref_kind: 'payment_refund', amount: -20000 },
      { kind: 'clearing', ref_kind: 'payment_refund', amount: 20400 },
      { kind: 'fee_revenue', ref_kind: 'payment_refund', amount: -400 },
    ]);
    const refund = await testDb().execute(sql`
      SELECT r.amount::int, r.service_fee::int, r.status FROM refunds r JOIN payments p ON p.id = r.payment_id WHERE p.link_reference = ${pending.body.data.link_reference}`);
    expect(refund.rows).toEqual([{ amount: 20000, service_fee: 400, status: 'succeeded' }]);
    // No gift and no receipt for an order that was not fulfilled.
    const none = await testDb().execute(
      sql`SELECT 1 FROM cardholder_messages m JOIN shop_orders o ON o.id = m.order_id WHERE o.reference = ${pending.body.data.order_reference}`,
    );
    expect(none.rows).toHaveLength(0);
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

describe("the order's messages", () => {
  it('a second gift to the same card is one more gift message, never money_added', async () => {
    const phone = randomPhone();
    const refs: string[] = [];
    for (const message of ['First', 'Second']) {
      const { body } = await placeOrder(order(phone, { message, buyer: { name: 'Sara', phone_number: randomPhone() } }));
      expect((await complete(body.data.link_reference)).status).toBe(200);
      refs.push(body.data.order_reference);
    }
    for (const ref of refs)
      expect((await settledOrderMessages(ref, 2)).map((m) => [m.kind, m.channel])).toEqual([
        ['gift_received', 'sms'],
        ['order_receipt', 'sms'],
      ]);
    const [card] = await cardsOf(phone);
    const kinds = await testDb().execute(
      sql`SELECT m.kind FROM cardholder_messages m JOIN cards c ON c.id = m.card_id WHERE c.card_number = ${card.card_number}`,
    );
    expect(kinds.rows).toEqual([{ kind: 'gift_received' }, { kind: 'gift_received' }]);
    // The card messages API lists the card's gifts; the receipts are the orders', not the card's.
    const listed = await biz.test.get(`/api/v1/card/${card.card_number}/messages`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.items.map((m: { kind: string }) => m.kind)).toEqual(['gift_received', 'gift_received']);
  });

  it('cuts a long message to fit the SMS, while the card page shows it whole, and a <script> message as text', async () => {
    // Ethiopic makes the SMS UCS-2 (67 characters a part when split): 200 of them cannot all fit.
    const long = `${'ሰላም ለእርስዎ '.repeat(19)}መጨረሻ`;
    const phone = randomPhone();
    const first = await placeOrder(order(phone, { message: long }));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    await complete(first.body.data.link_reference);
    const [gift] = await settledOrderMessages(first.body.data.order_reference, 2);
    expect(gift.text).not.toContain(long);
    expect(gift.text).not.toContain('መጨረሻ');
    expect(gift.text).toMatch(/"ሰላም ለእርስዎ (ሰላም ለእርስዎ )*ሰላም ለእርስዎ\.\.\."/);
    expect(smsParts(gift.text!).parts).toBeLessThanOrEqual(3);
    const page = String((await anyone().get(new URL(gift.link_url!).pathname)).body);
    expect(page).toContain(long);

    const script = '<script>alert("x")</script> <a href="https://evil.example">https://evil.example</a>';
    const second = await placeOrder(order(phone, { message: script, amount: 10000 }));
    await complete(second.body.data.link_reference);
    // Each gift carries a new link (only a link's hash is kept, so the last one cannot be sent again); it opens the same card.
    const [secondGift] = await settledOrderMessages(second.body.data.order_reference, 2);
    const again = String((await anyone().get(new URL(secondGift.link_url!).pathname)).body);
    expect(again).not.toContain('<script>alert');
    expect(again).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
    expect(again).not.toContain('href="https://evil.example');
    expect(again).toContain(long);
  });

  it('go as the business lets them: with every kind it may turn off turned off, only the gift is written (nothing else brings the recipient the card); the receipt shows on the order’s page and the Messages page', async () => {
    const owner = await userOf(biz.id, 'owner');
    const { cookie } = await signInOverHttp(owner.email, PASSWORD);
    await setMessageKinds(testDb(), biz.id, { type: 'system', id: 'test' }, { on: [] });
    try {
      const { body } = await placeOrder(order());
      await complete(body.data.link_reference);
      expect((await settledOrderMessages(body.data.order_reference, 1)).map((m) => m.kind)).toEqual(['gift_received']);
    } finally {
      await setMessageKinds(testDb(), biz.id, { type: 'system', id: 'test' }, { on: [...SWITCHABLE_MESSAGE_KINDS] });
    }
    const settings = await messageKindSettings(testDb(), biz.id);
    // The gift is not offered to turn off; the receipt is.
    expect(settings.filter((k) => isOrderKind(k.kind)).map((k) => [k.kind, k.on, k.parts <= 3])).toEqual([['order_receipt', true, true]]);

    const buyerPhone = randomPhone();
    const { body } = await placeOrder(order(randomPhone(), { buyer: { name: 'Sara Bekele', phone_number: buyerPhone } }));
    await complete(body.data.link_reference);
    await settledOrderMessages(body.data.order_reference, 2);
    const detail = await getWithSession(`/shop-orders/${body.data.order_reference}`, cookie!);
    expect(detail.status).toBe(200);
    expect(detail.text).toContain('data-testid="order-message-gift_received"');
    expect(detail.text).toContain('data-testid="order-message-order_receipt"');
    expect(detail.text).toContain('Not sent (test mode)');
    const list = await getWithSession(`/messages?phone=${encodeURIComponent(buyerPhone.slice(-7))}`, cookie!);
    expect(list.status).toBe(200);
    expect(list.text).toContain(`/shop-orders/${body.data.order_reference}`);
    expect(list.text).toContain('A shop order&#x27;s receipt, to its buyer');
  });

  it('credits a card POST /card issued for the recipient while the order was being paid, instead of rolling the payment back', async () => {
    const phone = randomPhone();
    const { body } = await placeOrder(order(phone));
    let completion: ReturnType<typeof complete> | undefined;
    let issued = '';
    // The card is written, not yet committed, when the payment completes: the order's card insert waits for it.
    await testDb().transaction(async (tx) => {
      issued = await issueCardIn(tx, {
        businessId: biz.id,
        mode: 'test',
        actor: { type: 'system', id: 'test' },
        input: { phone_number: phone, currency: 'ETB', first_name: 'Hanna' },
      });
      const [{ xid }] = (await tx.execute<{ xid: string }>(sql`SELECT pg_current_xact_id()::xid::text AS xid`)).rows;
      completion = complete(body.data.link_reference);
      await expect
        .poll(
          async () =>
            (await testDb().execute(sql`SELECT 1 FROM pg_locks WHERE NOT granted AND locktype = 'transactionid' AND transactionid::text = ${xid}`)).rows.length,
          { timeout: 15_000, interval: 50 },
        )
        .toBe(1);
    });
    const answer = await completion!;
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.data.status).toBe('success');
    expect(await cardsOf(phone)).toEqual([{ card_number: issued, balance: 50000 }]);
    expect(await orderStatus(body.data.order_reference)).toBe('paid');
    expect((await settledOrderMessages(body.data.order_reference, 2)).map((m) => m.kind)).toEqual(['gift_received', 'order_receipt']);
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
