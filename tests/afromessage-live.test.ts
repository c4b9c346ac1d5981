import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../lib/db/client';
import { afroMessageConfig, sendSms } from '../lib/sms/afromessage';
import { spendCode } from '../lib/spend-codes/spend-code';
import { AFROMESSAGE_TEST, afroMessageEnv, type AfroMessageFakeProcess, startAfroMessageFake } from './afromessage-harness';
import { startFakeSmtp } from './fake-smtp';
import { apiClient, randomPhone, type ApiClient } from './helpers';
import { createScratchDatabase, freePort, startTestServer, type TestServer } from './test-server';

/**
 * Live mode against tools/afromessage-fake over real HTTP: a server of its own on a scratch database (the shared
 * server, without AFROMESSAGE_TOKEN, would fail live messages as unconfigured), its message worker the only one.
 */

const ADMIN = 'adm_afromessage_0123456789abcdef_0123';
let fake: AfroMessageFakeProcess;
let server: TestServer;
let db: Db;
let endPool: () => Promise<void>;
let start: () => Promise<TestServer>;
let live: ApiClient;
let test: ApiClient;
let businessId: number;
let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;

beforeAll(async () => {
  const url = await createScratchDatabase(inject('databaseUrl'), 'afromessage_live');
  const handle = createDb(url, 4);
  db = handle.db;
  endPool = () => handle.pool.end();
  fake = await startAfroMessageFake();
  smtp = await startFakeSmtp();
  const port = await freePort();
  start = () =>
    startTestServer({
      databaseUrl: url,
      adminToken: ADMIN,
      port,
      processGroup: true,
      loops: ['cardholder-messages', 'payout-settlement'],
      env: { ...afroMessageEnv(fake.url), SMTP_URL: smtp.url, MAIL_FROM: 'cards@example.com' },
    });
  server = await start();
  const res = await fetch(`${server.baseUrl}/api/admin/businesses`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Abebe Shop' }),
  });
  const biz = ((await res.json()) as any).data;
  businessId = biz.id;
  live = apiClient(biz.api_keys.live, server.baseUrl);
  test = apiClient(biz.api_keys.test, server.baseUrl);
}, 180_000);

afterAll(async () => {
  await server?.stop();
  await fake?.stop();
  await smtp?.close();
  await endPool?.();
});

const notifiedCard = async (client = live, phone = randomPhone()) => {
  const res = await client.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Abebe', notify: true });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { card: res.body.data.card_number as string, phone };
};

const messagesOf = async (card: string, client = live) => (await client.get(`/api/v1/card/${card}/messages`)).body.data.items as any[];
const receivedBy = async (phone: string) => (await fake.state()).messages.filter((m) => m.to === phone);
const eventsOf = async (reference: string) =>
  (await db.execute<{ type: string; body: string }>(sql`SELECT type, body FROM webhook_events WHERE subject_reference = ${reference} ORDER BY id`)).rows.map(
    (r) => ({ type: r.type, ...JSON.parse(r.body) }),
  );

describe('live messages through AfroMessage', () => {
  it('a card issued with notify: sent by POST with the identifier, sender and a callback that marks it delivered; message.sent', async () => {
    const { card, phone } = await notifiedCard();
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 15_000 }).toBe('delivered');
    const [m] = await messagesOf(card);
    const [got] = await receivedBy(phone);
    expect(got).toMatchObject({ via: 'POST', from: AFROMESSAGE_TEST.identifierId, sender: AFROMESSAGE_TEST.sender, message: m.text });
    expect(got.callback).toMatch(new RegExp(`^${server.baseUrl}/api/providers/afromessage/callback/[0-9A-Za-z]{43}$`));
    expect(m.provider_message_id).toBe(got.message_id);
    const [sent] = await eventsOf(m.message_reference);
    expect(sent).toMatchObject({ type: 'message.sent', event: 'message.sent', status: 'sent', mode: 'live', kind: 'card_issued', channel: 'sms' });
    expect(sent.to).not.toContain(phone.slice(4, 9));
    // Only the callback token's hash is kept.
    const token = got.callback.split('/').pop()!;
    const stored = await db.execute(sql`SELECT 1 FROM cardholder_messages WHERE callback_hash = ${token} OR text LIKE ${`%${token}%`}`);
    expect(stored.rows).toHaveLength(0);
  });

  it('money added on a live card reaches the holder with the balance after', async () => {
    const { card, phone } = await notifiedCard();
    await fetch(`${server.baseUrl}/api/admin/businesses/${businessId}/balance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'live', currency: 'ETB', amount: 12_345 }),
    });
    const t = await live.post('/api/v1/transfers', { amount: 12_345, bank_slug: 'link', account_number: card, account_name: 'Top-up' });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    await expect.poll(async () => (await receivedBy(phone)).length, { timeout: 20_000 }).toBe(2);
    expect((await receivedBy(phone))[1].message).toBe(`Abebe Shop: ETB 123.45 added to your gift card ending ${card.slice(-4)}. Balance now ETB 123.45.`);
  });

  it('a spend code reaches a card whose messages are off, with the code in the SMS and only its mask in every list', async () => {
    const phone = randomPhone();
    const made = await live.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Abebe' });
    const card = made.body.data.card_number as string;
    const admin = (path: string, method: string, body: unknown) =>
      fetch(`${server.baseUrl}/api/admin/businesses/${businessId}/${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await admin('balance', 'POST', { mode: 'live', currency: 'ETB', amount: 500_000 });
    await admin('limits', 'PUT', { mode: 'live', currency: 'ETB', spend_code_over: 100_000 });
    expect((await live.post('/api/v1/transfers', { amount: 500_000, bank_slug: 'link', account_number: card, account_name: 'Top-up' })).status).toBe(200);
    await expect.poll(async () => (await live.get(`/api/v1/card/${card}`)).body.data.available_amount, { timeout: 20_000 }).toBe(500_000);

    const waiting = await live.post(`/api/v1/card/${card}/redemptions`, { amount: 200_000 });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(202);
    await expect.poll(async () => (await receivedBy(phone)).length, { timeout: 20_000 }).toBe(1);
    const { rows } = await db.execute<{ code_salt: string }>(
      sql`SELECT code_salt FROM spend_confirmations WHERE reference = ${waiting.body.data.confirmation_reference}`,
    );
    // The test server's AUTH_SECRET (tests/test-server.ts): the code the sender derived.
    process.env.AUTH_SECRET = 'test-auth-secret-test-auth-secret';
    const code = spendCode('live', rows[0].code_salt);
    expect((await receivedBy(phone))[0].message).toBe(
      `Abebe Shop: ${code} is the code to spend ETB 2,000.00 from your gift card ending ${card.slice(-4)}. Give it only to the cashier. It works for 5 minutes.`,
    );
    const [listed] = await messagesOf(card);
    expect(listed.kind).toBe('spend_code');
    // The fake reports delivery at once: sent or already delivered.
    expect(['sent', 'delivered']).toContain(listed.status);
    expect(listed.text).toContain('****** is the code');
    expect(listed.text).not.toContain(code);
    const done = await live.post(`/api/v1/card/confirmations/${waiting.body.data.confirmation_reference}`, { code });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.available_amount).toBe(300_000);
  });

  it('acknowledge error is final, shown in AfroMessage’s words, with message.failed', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: 'error', errors: ['Insufficient credit'] } } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 15_000 }).toBe('failed');
    const [m] = await messagesOf(card);
    expect(m.error).toBe('Insufficient credit');
    expect((await eventsOf(m.message_reference)).map((e) => [e.type, e.error])).toEqual([['message.failed', 'Insufficient credit']]);
    expect(await receivedBy(phone)).toHaveLength(0);
    expect((await fake.state()).sends.filter((s) => s.to === phone)).toHaveLength(1);
  });

  it('5xx and 429 are retried on the backoff, then sent once', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: '503', times: 1 } } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await fake.state()).sends.filter((s) => s.to === phone).length, { timeout: 15_000 }).toBe(2);
    await fake.switches({ numbers: { [phone]: { mode: '429', times: 1 } } });
    const shared = await live.post(`/api/v1/card/${card}/share`, { channel: 'sms' });
    expect(shared.status).toBe(202);
    expect(shared.body.data.status).toBe('queued');
    await expect.poll(async () => (await messagesOf(card)).map((m) => m.status), { timeout: 15_000 }).toEqual(['delivered', 'delivered']);
    expect((await fake.state()).sends.filter((s) => s.to === phone).map((s) => s.answered)).toEqual([503, 200, 429, 200]);
    expect(await receivedBy(phone)).toHaveLength(2);
  });

  it('a send that times out before AfroMessage took it goes again and arrives once', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: 'timeout', times: 1 } } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 20_000 }).toBe('delivered');
    expect(await receivedBy(phone)).toHaveLength(1);
  });

  it('a message AfroMessage took twice without answering is failed, never sent a third time', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: 'accept_then_hang' } }, callbackStatus: { [phone]: 'off' } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 30_000 }).toBe('failed');
    expect((await messagesOf(card))[0].error).toMatch(/Not sent again/);
    expect(await receivedBy(phone)).toHaveLength(2);
  });

  it('a send that never heard back but was delivered says message.sent once, from the delivery report', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: 'accept_then_hang', times: 1 } } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 30_000 }).toBe('delivered');
    const [m] = await messagesOf(card);
    await expect.poll(async () => (await eventsOf(m.message_reference)).map((e) => e.type), { timeout: 15_000 }).toEqual(['message.sent']);
    expect(await receivedBy(phone)).toHaveLength(1);
  });

  it('a 502 after AfroMessage took the message counts as a send that may have arrived: at most twice, then failed', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: 'accept_then_502' } }, callbackStatus: { [phone]: 'off' } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 30_000 }).toBe('failed');
    expect((await messagesOf(card))[0].error).toMatch(/Not sent again/);
    expect(await receivedBy(phone)).toHaveLength(2);
  });

  it('a delivery report of failure fails the message; an unknown callback token is 404', async () => {
    const phone = randomPhone();
    await fake.switches({ callbackStatus: { [phone]: 'Failed' } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 15_000 }).toBe('failed');
    const [m] = await messagesOf(card);
    expect(m.error).toBe('AfroMessage reported the message Failed');
    expect((await eventsOf(m.message_reference)).map((e) => e.type)).toEqual(['message.sent', 'message.failed']);
    expect((await fetch(`${server.baseUrl}/api/providers/afromessage/callback/${'x'.repeat(43)}?status=Delivered`)).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/api/providers/afromessage/callback/short?status=Delivered`)).status).toBe(404);
  });

  it('a test-mode card on the same server sends nothing to AfroMessage', async () => {
    const before = (await fake.state()).sends.length;
    const { card, phone } = await notifiedCard(test);
    await expect.poll(async () => (await messagesOf(card, test))[0]?.status, { timeout: 15_000 }).toBe('not_sent_test_mode');
    expect((await test.post(`/api/v1/card/${card}/share`, { channel: 'sms' })).body.data.status).toBe('not_sent_test_mode');
    expect((await fake.state()).sends.length).toBe(before);
    expect(await receivedBy(phone)).toHaveLength(0);
  });

  it('a holder with an email gets the link by email through SMTP when shared by email; SMS and email both once messages are on', async () => {
    const phone = randomPhone();
    const res = await live.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Mail' });
    const card = res.body.data.card_number as string;
    await db.execute(sql`UPDATE customer_names SET email = 'holder@example.com'
      WHERE customer_id = (SELECT customer_id FROM cards WHERE card_number = ${card}) AND business_id = ${businessId}`);
    const shared = await live.post(`/api/v1/card/${card}/share`, { channel: 'email' });
    expect(shared.status, JSON.stringify(shared.body)).toBe(202);
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 15_000 }).toBe('sent');
    const [m] = await messagesOf(card);
    expect(m).toMatchObject({ channel: 'email', kind: 'new_link', to: 'h***@example.com' });
    // The body is quoted-printable: soft line breaks and =XX escapes undone before looking for the link.
    const decoded = smtp.messages.map((x) => x.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16))));
    const mail = decoded.find((x) => x.includes(shared.body.data.link_url));
    expect(mail).toContain(`Subject: Abebe Shop: your gift card ending ${card.slice(-4)}`);
    expect(await receivedBy(phone)).toHaveLength(0);

    // Messages are on now: a top-up reaches the phone and the address both.
    await fetch(`${server.baseUrl}/api/admin/businesses/${businessId}/balance`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'live', currency: 'ETB', amount: 500 }),
    });
    expect((await live.post('/api/v1/transfers', { amount: 500, bank_slug: 'link', account_number: card, account_name: 'Top-up' })).status).toBe(200);
    await expect
      .poll(
        async () =>
          (await messagesOf(card))
            .filter((x) => x.kind === 'money_added')
            .map((x) => `${x.channel} ${x.status}`)
            .sort(),
        { timeout: 20_000 },
      )
      .toEqual(['email sent', 'sms delivered']);
  });

  it('the client sends by GET too, and a wrong token is a final 401', async () => {
    const config = afroMessageConfig({ ...afroMessageEnv(fake.url), AFROMESSAGE_METHOD: 'GET' })!;
    const phone = randomPhone();
    const ok = await sendSms(config, { to: phone, message: 'ሰላም', callback: '' });
    expect(ok).toMatchObject({ kind: 'accepted', status: 'Send' });
    expect(await receivedBy(phone)).toMatchObject([{ via: 'GET', message: 'ሰላም', sender: AFROMESSAGE_TEST.sender }]);
    expect(await sendSms({ ...config, token: 'wrong' }, { to: phone, message: 'x', callback: '' })).toEqual({
      kind: 'refused',
      error: 'AfroMessage answered 401: Unauthorized',
    });
    expect(await sendSms({ ...config, sender: 'Unknown' }, { to: phone, message: 'x', callback: '' })).toEqual({
      kind: 'refused',
      error: 'Unknown sender: Unknown',
    });
  });
});

describe('a crash between the commit and the send', () => {
  it('SIGKILL while AfroMessage holds the request: sent again once after the restart (at most twice), never a third time', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: 'accept_then_hang', times: 1 } }, callbackStatus: { [phone]: 'off' } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await receivedBy(phone)).length, { timeout: 15_000 }).toBe(1);
    await server.stop('SIGKILL');
    server = await start();
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 30_000 }).toBe('sent');
    expect(await receivedBy(phone)).toHaveLength(2);
    const row = await db.execute<{ sends: number; uncertain_sends: number }>(
      sql`SELECT sends, uncertain_sends FROM cardholder_messages m JOIN cards c ON c.id = m.card_id WHERE c.card_number = ${card}`,
    );
    expect(row.rows[0]).toEqual({ sends: 2, uncertain_sends: 1 });
  }, 90_000);

  it('SIGKILL while AfroMessage holds the request, its delivery report already in: delivered, never sent again', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: 'accept_then_hang', times: 1 } } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 15_000 }).toBe('delivered');
    await server.stop('SIGKILL');
    server = await start();
    // The restarted worker takes the job once its lease lapses, finds the message final, and closes it.
    await expect
      .poll(
        async () =>
          (
            await db.execute<{ state: string }>(
              sql`SELECT j.state FROM jobs j JOIN cardholder_messages m ON m.reference = j.subject JOIN cards c ON c.id = m.card_id WHERE c.card_number = ${card}`,
            )
          ).rows[0]?.state,
        { timeout: 30_000 },
      )
      .toBe('done');
    expect(await receivedBy(phone)).toHaveLength(1);
  }, 90_000);

  it('SIGKILL before the worker took the message: sent once after the restart', async () => {
    const phone = randomPhone();
    await fake.switches({ numbers: { [phone]: { mode: '503' } } });
    const { card } = await notifiedCard(live, phone);
    await expect.poll(async () => (await fake.state()).sends.filter((s) => s.to === phone).length, { timeout: 15_000 }).toBeGreaterThan(0);
    await server.stop('SIGKILL');
    await fake.switches({ numbers: { [phone]: { mode: '503', times: 0 } } });
    server = await start();
    await expect.poll(async () => (await messagesOf(card))[0]?.status, { timeout: 30_000 }).toBe('delivered');
    expect(await receivedBy(phone)).toHaveLength(1);
  }, 90_000);
});
