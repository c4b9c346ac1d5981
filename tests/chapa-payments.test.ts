import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../lib/db/client';
import { CHAPA_TEST_SECRETS, LIVE_LOOPS, startLiveStack, type LiveStack } from './chapa-harness';
import { apiClient, createCard, createTestBusiness, randomPhone, testDb, type ApiClient } from './helpers';
import { createScratchDatabase } from './test-server';

/**
 * Live payments over real HTTP: a second app server with CHAPA_* pointing at
 * tools/chapa-fake (a process), the fake's switches playing what goes wrong.
 */

let stack: LiveStack;
let live: ApiClient;

beforeAll(async () => {
  stack = await startLiveStack({
    databaseUrl: inject('databaseUrl'),
    adminToken: inject('adminToken'),
    loops: LIVE_LOOPS,
    env: { CHAPA_PAYMENT_TIMEOUT_MS: '6000' },
  });
  const biz = await stack.createBusiness('Live payments business');
  live = apiClient(biz.keys.live, stack.baseUrl);
});
afterAll(async () => {
  await stack?.stop();
});
beforeEach(async () => {
  await stack.fake.reset();
});

const status = async (ref: string) => (await live.get(`/api/v1/card/payment/${ref}/status`)).body.data;
const balance = async (cardNumber: string) => (await live.get(`/api/v1/card/${cardNumber}`)).body.data.available_amount as number;
/** expect.poll with room for a loaded machine (its default gives up after a second). */
const poll = <T>(check: () => Promise<T>) => expect.poll(check, { timeout: 15_000, interval: 100 });
const waitForStatus = (ref: string, want: string) => poll(async () => (await status(ref))?.status).toBe(want);

async function hosted(amount = 10_000, phone = randomPhone()) {
  const card = await createCard(live, 'ETB', phone);
  const res = await live.post('/api/v1/card/payments', { type: 'hosted', amount, card_number: card.card_number });
  return { card, res, ref: res.body.data?.link_reference as string };
}

/** The customer on the fake's hosted page: Pay, Decline or Cancel. */
async function customer(ref: string, action: 'pay' | 'decline' | 'cancel') {
  const state = await stack.fake.state();
  const t = state.stores.transactions?.[ref] ?? Object.values(state.stores.transactions ?? {}).find((x: any) => x.txRef === ref);
  if (!t) throw new Error(`the fake has no transaction ${ref}`);
  const res = await fetch(`${stack.fake.url}/checkout/payment/${(t as any).token}/${action}`, { method: 'POST', redirect: 'manual' });
  return res;
}

async function ledgerRows(ref: string, db: Db = testDb()) {
  const { rows } = await db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM ledger_transactions WHERE reference = ${ref}`);
  return Number(rows[0].n);
}

describe('live mode without CHAPA_SECRET_KEY', () => {
  it('answers the spec 502 with why in error, and records nothing', async () => {
    const biz = await createTestBusiness('Unconfigured live');
    const card = await createCard(biz.live);
    const res = await biz.live.post('/api/v1/card/payments', { type: 'hosted', amount: 1000, card_number: card.card_number });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ status: 'error', message: 'Payment request failed' });
    expect(res.body.error).toContain('Live payments are not configured');
    const charge = await biz.live.post('/api/v1/card/payments', {
      type: 'direct-charge',
      amount: 1000,
      card_number: card.card_number,
      phone_number: '+251900123456',
      payment_method: 'telebirr',
    });
    expect(charge.status).toBe(502);
    expect(charge.body.error).toContain('Live payments are not configured');
    expect((await biz.live.get('/api/v1/card/payments')).body.data.total).toBe(0);
  });
});

describe('hosted checkout, live', () => {
  it('initializes at Chapa, keeps our own checkout_url, and credits the card only after verify agrees', async () => {
    const { card, res, ref } = await hosted(10_000, '+251911000111');
    expect(res.status).toBe(201);
    expect(res.body.data.checkout_url).toBe(`${stack.baseUrl}/checkout/${ref}`);
    const state = await stack.fake.state();
    const init = state.requests.find((r) => r.operation === 'initialize' && r.body.tx_ref === ref)!;
    expect(init.body).toMatchObject({
      amount: '100.00',
      currency: 'ETB',
      tx_ref: ref,
      callback_url: `${stack.baseUrl}/api/providers/chapa/callback`,
      return_url: `${stack.baseUrl}/checkout/${ref}?from=chapa`,
      first_name: 'Test',
      last_name: 'Holder',
      phone_number: '0911000111',
    });
    expect((await status(ref)).status).toBe('pending');

    const back = await customer(ref, 'pay');
    expect(back.status).toBe(303);
    expect(back.headers.get('location')).toBe(`${stack.baseUrl}/checkout/${ref}?from=chapa`);
    await waitForStatus(ref, 'success');
    expect(await balance(card.card_number)).toBe(10_000);
    const after = await stack.fake.state();
    expect(after.requests.filter((r) => r.operation === 'verify' && r.path.endsWith(ref)).length).toBeGreaterThan(0);
    expect(await ledgerRows(ref)).toBe(1);
    const [row] = (await testDb().execute(sql`SELECT verify_state, provider_reference FROM payments WHERE link_reference = ${ref}`)).rows as any[];
    expect(row.verify_state).toBe('verified');
    expect(row.provider_reference).toMatch(/^AP/);
  });

  it.each([
    ['500', '500'],
    ['429', '429'],
    ['timeout', 'timeout'],
  ])('initialize answering %s is 502 Payment request failed and records nothing', async (_name, mode) => {
    await stack.fake.switches({ failures: { initialize: { mode } } });
    const before = (await live.get('/api/v1/card/payments')).body.data.total;
    const { res } = await hosted(1_000);
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ status: 'error', message: 'Payment request failed' });
    expect((await live.get('/api/v1/card/payments')).body.data.total).toBe(before);
  });

  it('a refused initialize is 502 too, with Chapa’s reason', async () => {
    const card = await createCard(live, 'DJF');
    const res = await live.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: card.card_number });
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('currency');
  });

  it('a declined checkout fails the payment and credits nothing', async () => {
    const { card, ref } = await hosted(2_000);
    await customer(ref, 'decline');
    await waitForStatus(ref, 'failed');
    expect(await balance(card.card_number)).toBe(0);
  });

  it('the callback alone (no webhook) settles it through verify', async () => {
    await stack.fake.switches({ webhooks: { delivery: 'off' } });
    const { card, ref } = await hosted(3_000);
    await customer(ref, 'pay');
    await waitForStatus(ref, 'success');
    expect(await balance(card.card_number)).toBe(3_000);
  });
});

describe('completion is never trusted from one message', () => {
  it('refuses a webhook whose x-chapa-signature is wrong, or that carries only chapa-signature, and credits nothing', async () => {
    await stack.fake.switches({ webhooks: { badSignature: true } });
    const { card, ref } = await hosted(4_000);
    // The customer pays at Chapa; the webhook's signature is wrong and is refused.
    const state = await stack.fake.state();
    const token = (Object.values(state.stores.transactions) as any[]).find((t) => t.txRef === ref).token;
    await fetch(`${stack.fake.url}/checkout/payment/${token}/pay`, { method: 'POST', redirect: 'manual' });
    await poll(async () => (await stack.fake.state()).deliveries.filter((d) => d.body.includes(ref)).map((d) => d.status)).toEqual([401]);

    const body = JSON.stringify({ event: 'charge.success', tx_ref: ref, status: 'success', amount: '40.00', currency: 'ETB' });
    const secret = CHAPA_TEST_SECRETS.webhookSecret;
    const onlyOld = await fetch(`${stack.baseUrl}/api/providers/chapa/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'chapa-signature': createHmac('sha256', secret).update(secret).digest('hex') },
      body,
    });
    expect(onlyOld.status).toBe(401);
    const signedOtherBody = await fetch(`${stack.baseUrl}/api/providers/chapa/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-chapa-signature': createHmac('sha256', secret).update(`${body} `).digest('hex') },
      body,
    });
    expect(signedOtherBody.status).toBe(401);
    // What credits it is the callback's verify, never a refused webhook.
    await waitForStatus(ref, 'success');
    expect(await balance(card.card_number)).toBe(4_000);
    expect(await ledgerRows(ref)).toBe(1);
  });

  it('answers payout and unknown events 200 without acting, and refuses a body over 64 KB before reading it', async () => {
    const post = (body: string) =>
      fetch(`${stack.baseUrl}/api/providers/chapa/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-chapa-signature': createHmac('sha256', CHAPA_TEST_SECRETS.webhookSecret).update(body).digest('hex') },
        body,
      });
    for (const [event, handled] of [
      ['payout.success', 'transfer'],
      ['payout.failed/cancelled', 'transfer'],
      ['refund.success', 'ignored'],
    ]) {
      const res = await post(JSON.stringify({ event, reference: 'bnk_x', status: 'success' }));
      expect(res.status).toBe(200);
      expect((await res.json()).data).toEqual({ event, handled });
    }
    const big = await post(JSON.stringify({ event: 'charge.success', pad: 'x'.repeat(70 * 1024) }));
    expect(big.status).toBe(413);
    expect((await post('not json')).status).toBe(400);
    const callback = await fetch(`${stack.baseUrl}/api/providers/chapa/callback?trx_ref=${encodeURIComponent('../x')}`);
    expect(callback.status).toBe(400);
  });

  it('a correctly signed webhook claiming success for an unpaid payment credits nothing', async () => {
    const { card, ref } = await hosted(5_000);
    await stack.fake.control('/__fake/webhooks/send', {
      event: 'charge.success',
      payload: { tx_ref: ref, status: 'success', amount: '50.00', currency: 'ETB' },
    });
    await poll(async () => (await stack.fake.state()).deliveries.find((d) => d.body.includes(ref))?.status).toBe(200);
    expect((await status(ref)).status).toBe('pending');
    expect(await balance(card.card_number)).toBe(0);
  });

  it('duplicated and replayed webhooks credit once', async () => {
    await stack.fake.switches({ webhooks: { copies: 4 } });
    const { card, ref } = await hosted(6_000);
    await customer(ref, 'pay');
    await waitForStatus(ref, 'success');
    const first = (await stack.fake.state()).deliveries.find((d) => d.body.includes(ref))!;
    await stack.fake.control('/__fake/webhooks/replay', { id: first.id });
    await Promise.all(Array.from({ length: 8 }, () => fetch(`${stack.baseUrl}/api/providers/chapa/callback?trx_ref=${ref}&status=success`)));
    await poll(async () => (await stack.fake.state()).deliveries.filter((d) => d.body.includes(ref) && d.status === 200).length).toBe(5);
    expect(await balance(card.card_number)).toBe(6_000);
    expect(await ledgerRows(ref)).toBe(1);
    const { rows } = await testDb().execute(sql`SELECT count(*)::int AS n FROM webhook_events WHERE subject_reference = ${ref}`);
    expect((rows[0] as any).n).toBe(1);
  });

  it('two app instances receiving the same webhooks and callbacks at once credit once', async () => {
    const second = await stack.startInstance();
    // Paid at Chapa, no webhook or callback of its own: the burst races the scheduled verify of both instances.
    await stack.fake.switches({ webhooks: { delivery: 'off' }, callbacks: false });
    const { card, ref } = await hosted(6_500);
    await customer(ref, 'pay');
    const body = JSON.stringify({ event: 'charge.success', tx_ref: ref, status: 'success' });
    const signature = createHmac('sha256', CHAPA_TEST_SECRETS.webhookSecret).update(body).digest('hex');
    const answers = await Promise.all(
      [stack.baseUrl, second.baseUrl, stack.baseUrl, second.baseUrl].flatMap((base) => [
        fetch(`${base}/api/providers/chapa/webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-chapa-signature': signature }, body }),
        fetch(`${base}/api/providers/chapa/callback?trx_ref=${ref}`),
      ]),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    await waitForStatus(ref, 'success');
    expect(await balance(card.card_number)).toBe(6_500);
    expect(await ledgerRows(ref)).toBe(1);
  });

  it('out-of-order webhooks (a stale failure after the success) change nothing: verify decides', async () => {
    await stack.fake.switches({ webhooks: { delivery: 'hold' } });
    const { card, ref } = await hosted(7_000);
    await customer(ref, 'pay');
    await stack.fake.control('/__fake/webhooks/send', { event: 'charge.failed', payload: { tx_ref: ref, status: 'failed' } });
    await stack.fake.control('/__fake/webhooks/flush', { order: 'reverse' });
    await waitForStatus(ref, 'success');
    await poll(async () => (await stack.fake.state()).deliveries.filter((d) => d.body.includes(ref) && d.status === 200).length).toBe(2);
    expect(await balance(card.card_number)).toBe(7_000);
    expect(await ledgerRows(ref)).toBe(1);
  });

  it('a webhook ahead of Chapa’s own record (verify still pending) is settled by the scheduled verify', async () => {
    // A direct charge has no callback: after the early webhook, only the schedule can find the success.
    await stack.fake.switches({ webhooks: { early: true } });
    const card = await createCard(live);
    const res = await live.post('/api/v1/card/payments', {
      type: 'direct-charge',
      amount: 8_000,
      card_number: card.card_number,
      phone_number: '+251900881111',
      payment_method: 'telebirr',
    });
    const ref = res.body.data.link_reference;
    // The webhook was answered while Chapa still said pending (the fake settles only after that answer).
    await poll(async () => (await stack.fake.state()).deliveries.find((d) => d.body.includes(ref))?.status).toBe(200);
    await waitForStatus(ref, 'success');
    expect(await balance(card.card_number)).toBe(8_000);
  });

  it('a verify that disagrees in amount fails the payment and records why', async () => {
    const { card, ref } = await hosted(9_000);
    await stack.fake.switches({ verifyOverride: { [ref]: { amount: '1.00' } } });
    await customer(ref, 'pay');
    await waitForStatus(ref, 'failed');
    expect(await balance(card.card_number)).toBe(0);
    const [row] = (await testDb().execute(sql`SELECT failure_reason, verify_state FROM payments WHERE link_reference = ${ref}`)).rows as any[];
    expect(row.verify_state).toBe('mismatch');
    expect(row.failure_reason).toBe("Chapa's verify reported 1.00 ETB paid where 90.00 ETB was due; nothing was credited.");
  });

  it('a verify that disagrees in currency fails the payment', async () => {
    const { card, ref } = await hosted(9_100);
    await stack.fake.switches({ verifyOverride: { [ref]: { currency: 'USD' } } });
    await customer(ref, 'pay');
    await waitForStatus(ref, 'failed');
    expect(await balance(card.card_number)).toBe(0);
  });

  it('verify being down (5xx, 429, timeout) leaves the payment pending, and the schedule credits it once Chapa answers', async () => {
    await stack.fake.switches({ failures: { verify: { mode: '503', times: 3 } } });
    const { card, ref } = await hosted(9_200);
    await customer(ref, 'pay');
    await expect
      .poll(async () => (await stack.fake.state()).requests.filter((r) => r.operation === 'verify' && r.answered === 503).length, { timeout: 10_000 })
      .toBe(3);
    await waitForStatus(ref, 'success');
    expect(await balance(card.card_number)).toBe(9_200);
    await stack.fake.switches({ failures: { verify: { mode: '429', times: 2 } } });
    const second = await hosted(9_300);
    await customer(second.ref, 'pay');
    await waitForStatus(second.ref, 'success');
    await stack.fake.switches({ failures: { verify: { mode: 'timeout', times: 1 } } });
    const third = await hosted(9_400);
    await customer(third.ref, 'pay');
    await waitForStatus(third.ref, 'success');
    expect(await ledgerRows(third.ref)).toBe(1);
  });

  it('a verify refused for our key (401) never times a payment out; once Chapa answers again, the clock applies', async () => {
    await stack.fake.switches({ failures: { verify: { mode: '401' } } });
    const { ref } = await hosted(1_600);
    const created = Date.now();
    // Well past CHAPA_PAYMENT_TIMEOUT_MS (6 s), verify keeps being refused and the payment keeps waiting.
    await expect
      .poll(
        async () =>
          (await stack.fake.state()).requests.filter((r) => r.operation === 'verify' && r.path.endsWith(ref) && r.answered === 401).length > 0 &&
          Date.now() - created > 7_000,
        { timeout: 20_000, interval: 250 },
      )
      .toBe(true);
    expect((await status(ref)).status).toBe('pending');
    const [row] = (await testDb().execute(sql`SELECT verify_state FROM payments WHERE link_reference = ${ref}`)).rows as any[];
    expect(row.verify_state).toBe('refused');
    await stack.fake.reset();
    await waitForStatus(ref, 'failed');
  });

  it('a payment that hears nothing times out as failed', async () => {
    const { card, ref } = await hosted(1_500);
    await waitForStatus(ref, 'failed');
    const [row] = (await testDb().execute(sql`SELECT failure_reason, verify_state FROM payments WHERE link_reference = ${ref}`)).rows as any[];
    expect(row.verify_state).toBe('timed_out');
    expect(row.failure_reason).toContain('time ran out');
    expect(await balance(card.card_number)).toBe(0);
  });
});

describe('verifies that race each other', () => {
  // The fake holds one verify's answer until the test has seen the other verify settle the payment, so the order is
  // forced rather than timed; this stack's calls to Chapa wait long enough for that (the file's stack times out in 2 s).
  // Its own database: the file's server would otherwise verify these payments too, against its own fake.
  let outer: { stack: LiveStack; live: ApiClient };
  let db: Db;
  let endPool: () => Promise<void>;
  beforeAll(async () => {
    outer = { stack, live };
    const url = await createScratchDatabase(inject('databaseUrl'), 'chapa_racing_verifies');
    const handle = createDb(url, 2);
    db = handle.db;
    endPool = () => handle.pool.end();
    stack = await startLiveStack({ databaseUrl: url, adminToken: inject('adminToken'), env: { CHAPA_PAYMENT_TIMEOUT_MS: '6000', CHAPA_TIMEOUT_MS: '60000' } });
    live = apiClient((await stack.createBusiness('Racing verifies business')).keys.live, stack.baseUrl);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
    await endPool?.();
    ({ stack, live } = outer);
  });
  const openGate = (name: string) => stack.fake.control('/__fake/gates/open', { name });
  const verifyCalls = async (ref: string) => (await stack.fake.state()).requests.filter((r) => r.operation === 'verify' && r.path.endsWith(ref));
  const paymentRow = async (ref: string) =>
    (await db.execute(sql`SELECT status, verify_state, verify_note FROM payments WHERE link_reference = ${ref}`)).rows[0] as any;
  async function signedWebhook(ref: string) {
    const body = JSON.stringify({ event: 'charge.success', tx_ref: ref, status: 'success' });
    const signature = createHmac('sha256', CHAPA_TEST_SECRETS.webhookSecret).update(body).digest('hex');
    return fetch(`${stack.baseUrl}/api/providers/chapa/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-chapa-signature': signature },
      body,
    });
  }

  it('a verify that sees the money taken while a concurrent one times the payment out flags it paid_after_failure', async () => {
    await stack.fake.switches({ webhooks: { delivery: 'off' }, callbacks: false, failures: { verify: { mode: '503' } } });
    const { card, ref } = await hosted(1_700);
    const created = Date.now();
    // Chapa down past the payment's time (6 s): it keeps waiting.
    await expect.poll(async () => Date.now() - created > 6_500 && (await verifyCalls(ref)).length > 0, { timeout: 20_000, interval: 250 }).toBe(true);
    expect((await status(ref)).status).toBe('pending');
    // Chapa back: the scheduled verify sees success but is held; a webhook's verify meanwhile sees pending and times it out.
    await stack.fake.switches({
      failures: { verify: { mode: '503', times: 0 } },
      verifyScript: { [ref]: [{ status: 'success', gate: 'taken' }, { status: 'pending' }] },
    });
    await poll(async () => (await verifyCalls(ref)).some((r) => r.answered === 0)).toBe(true);
    expect((await signedWebhook(ref)).status).toBe(200);
    await waitForStatus(ref, 'failed');
    // Only now does the held verify answer: it sees the money taken after the payment was failed.
    await openGate('taken');
    // The fake has answered before the app has acted on the answer: wait for what it writes.
    await poll(async () => (await paymentRow(ref)).verify_state).toBe('paid_after_failure');
    const row = await paymentRow(ref);
    expect(row.verify_note).toContain('refund it or credit the card by hand');
    expect(await balance(card.card_number)).toBe(0);
    expect(await ledgerRows(ref, db)).toBe(0);
  });

  it('a late "still pending" verify does not overwrite the verdict of a payment credited meanwhile', async () => {
    await stack.fake.switches({ webhooks: { delivery: 'off' }, callbacks: false, failures: { verify: { mode: '503' } } });
    const { card, ref } = await hosted(1_800);
    await customer(ref, 'pay');
    await stack.fake.switches({ failures: { verify: { mode: '503', times: 0 } }, verifyScript: { [ref]: [{ status: 'pending', gate: 'late' }] } });
    await poll(async () => (await verifyCalls(ref)).some((r) => r.answered === 0)).toBe(true);
    expect((await signedWebhook(ref)).status).toBe(200);
    await waitForStatus(ref, 'success');
    await openGate('late');
    await poll(async () => (await verifyCalls(ref)).every((r) => r.answered !== 0)).toBe(true);
    expect((await paymentRow(ref)).verify_state).toBe('verified');
    expect(await balance(card.card_number)).toBe(1_800);
  });
});

describe('a test key driving live mode', () => {
  it('is warned about at start-up, and its verify answering mode "test" is accepted', async () => {
    expect(stack.server.output()).toContain('CHAPA_SECRET_KEY is a test key');
  });
});

describe('direct charge, live', () => {
  const charge = (cardNumber: string, phone: string, method = 'telebirr', amount = 2_500) =>
    live.post('/api/v1/card/payments', { type: 'direct-charge', amount, card_number: cardNumber, phone_number: phone, payment_method: method });

  it('pushes a USSD request with Chapa’s test number and credits once verify agrees', async () => {
    const card = await createCard(live);
    const res = await charge(card.card_number, '+251900123456');
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'PENDING', payment_method: 'telebirr', next_action: { type: 'ussd' } });
    const ref = res.body.data.link_reference;
    const req = (await stack.fake.state()).requests.find((r) => r.operation === 'charge' && r.body.tx_ref === ref)!;
    expect(req.path).toBe('/v1/charges?type=telebirr');
    expect(req.body).toMatchObject({ amount: '25.00', currency: 'ETB', mobile: '0900123456' });
    await waitForStatus(ref, 'success');
    expect(await balance(card.card_number)).toBe(2_500);
  });

  it('M-Pesa and CBE Birr go by their own types; a number that is not a test number fails', async () => {
    const card = await createCard(live);
    const mpesa = await charge(card.card_number, '+251700123456', 'mpesa');
    const cbe = await charge(card.card_number, '+251911999999', 'cbebirr');
    expect([mpesa.status, cbe.status]).toEqual([201, 201]);
    await waitForStatus(mpesa.body.data.link_reference, 'success');
    await waitForStatus(cbe.body.data.link_reference, 'failed');
    expect(await balance(card.card_number)).toBe(2_500);
  });

  it('a wallet that asks for an OTP: next_action otp, a wrong code refused, the right one sent encrypted, then verify credits', async () => {
    await stack.fake.switches({ chargeAuthType: 'otp' });
    const card = await createCard(live);
    const res = await charge(card.card_number, '+251900112233', 'telebirr', 3_300);
    expect(res.body.data.next_action).toMatchObject({ type: 'otp' });
    const ref = res.body.data.link_reference;
    const path = `/api/v1/card/payment/${ref}/authorize`;
    expect((await live.post(path, { otp: 'abc' })).status).toBe(400);
    const wrong = await live.post(path, { otp: '99999' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ message: 'Invalid request' });
    expect(wrong.body.error).toContain('Invalid OTP');
    expect((await status(ref)).status).toBe('pending');
    const right = await live.post(path, { otp: '12345' });
    expect(right.status).toBe(200);
    expect(right.body.data).toMatchObject({ link_reference: ref, status: 'success' });
    expect(await balance(card.card_number)).toBe(3_300);
    const validate = (await stack.fake.state()).requests.filter((r) => r.operation === 'validate').at(-1)!;
    expect(validate.body.client).not.toContain('12345');
    expect((await live.post(path, { otp: '12345' })).status).toBe(400);
  });

  it('a webhook naming only Chapa’s reference (no tx_ref) finds the payment by it; one naming nothing of ours does nothing', async () => {
    const card = await createCard(live);
    const res = await charge(card.card_number, '+251900123456', 'telebirr', 1_700);
    const ref = res.body.data.link_reference;
    const chapaReference = (await stack.fake.state()).stores.transactions[ref].reference;
    const send = async (payload: Record<string, unknown>) => {
      const body = JSON.stringify({ event: 'charge.success', status: 'success', ...payload });
      const sig = createHmac('sha256', CHAPA_TEST_SECRETS.webhookSecret).update(body).digest('hex');
      const answer = await fetch(`${stack.baseUrl}/api/providers/chapa/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-chapa-signature': sig },
        body,
      });
      return { status: answer.status, data: (await answer.json()).data };
    };
    expect(await send({ reference: chapaReference })).toEqual({ status: 200, data: { event: 'charge.success', handled: 'payment', payment: ref } });
    expect(await send({ reference: 'CH-not-ours' })).toEqual({ status: 200, data: { event: 'charge.success', handled: 'payment', payment: null } });
    await waitForStatus(ref, 'success');
    expect(await balance(card.card_number)).toBe(1_700);
  });

  it('a wallet Chapa does not charge is a validation error in live mode', async () => {
    const card = await createCard(live, 'DJF');
    const res = await charge(card.card_number, '+251900123456', 'waafi');
    expect(res.status).toBe(400);
    expect(res.body.error.payment_method).toContain('telebirr');
  });

  it('a refused charge fails the payment with a 502', async () => {
    const card = await createCard(live);
    const res = await charge(card.card_number, '+12025550123');
    expect(res.status).toBe(502);
    expect(res.body.message).toBe('Payment request failed');
  });

  it('a charge request that gets no answer stays pending and verify settles it', async () => {
    await stack.fake.switches({ failures: { charge: { mode: '502', times: 1 } } });
    const card = await createCard(live);
    const res = await charge(card.card_number, '+251900112233');
    expect(res.status).toBe(502);
    const ref = /pay_[A-Za-z0-9]+/.exec(res.body.error)![0];
    // Chapa never got it: verify does not know it, and its time runs out.
    await waitForStatus(ref, 'failed');
    expect(await balance(card.card_number)).toBe(0);
  });
});
