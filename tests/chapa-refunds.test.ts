import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { verifyLedger } from '../lib/ledger/verify-ledger';
import { listPaymentRefunds } from '../lib/refunds/list-refunds';
import { CHAPA_TEST_SECRETS, LIVE_LOOPS, startLiveStack, type LiveStack } from './chapa-harness';
import { apiClient, createCard, randomPhone, testDb, type ApiClient } from './helpers';

/**
 * Live refunds over real HTTP: an app server whose CHAPA_* point at
 * tools/chapa-fake, whose switches play Chapa refusing and being down.
 */

let stack: LiveStack;
let live: ApiClient;

beforeAll(async () => {
  stack = await startLiveStack({
    databaseUrl: inject('databaseUrl'),
    adminToken: inject('adminToken'),
    loops: LIVE_LOOPS,
    env: { CHAPA_RETRY_BASE_MS: '200' },
  });
  const biz = await stack.createBusiness('Live refunds business');
  live = apiClient(biz.keys.live, stack.baseUrl);
});
afterAll(async () => {
  await stack?.stop();
});
beforeEach(async () => {
  await stack.fake.reset();
});

const poll = <T>(check: () => Promise<T>) => expect.poll(check, { timeout: 20_000, interval: 100 });
const balance = async (cardNumber: string) => (await live.get(`/api/v1/card/${cardNumber}`)).body.data.available_amount as number;
const paymentRecord = async (ref: string) => (await live.get(`/api/v1/card/payment/${ref}/status`)).body.data;

/** A live hosted payment the customer paid on the fake's page, credited after verify. */
async function paidLive(amount: number) {
  const card = await createCard(live, 'ETB', randomPhone());
  const res = await live.post('/api/v1/card/payments', { type: 'hosted', amount, card_number: card.card_number });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const ref = res.body.data.link_reference as string;
  const state = await stack.fake.state();
  const t = state.stores.transactions?.[ref] ?? Object.values(state.stores.transactions ?? {}).find((x: any) => x.txRef === ref);
  await fetch(`${stack.fake.url}/checkout/payment/${(t as any).token}/pay`, { method: 'POST', redirect: 'manual' });
  await poll(async () => (await paymentRecord(ref)).status).toBe('success');
  return { ref, card: card.card_number as string };
}

/** The refunds the fake took for one payment. */
const fakeRefunds = async (txRef: string) =>
  (Object.values((await stack.fake.state()).stores.refunds ?? {}) as { reference: string; txRef: string; amount: number }[]).filter((r) => r.txRef === txRef);

async function refundRow(reference: string) {
  const { rows } = await testDb().execute<{ status: string; request_state: string; attempts: number; failure_reason: string | null }>(
    sql`SELECT r.status, r.request_state, j.attempts, r.failure_reason
        FROM refunds r LEFT JOIN jobs j ON j.kind = 'refund' AND j.subject = r.reference WHERE r.reference = ${reference}`,
  );
  return rows[0];
}

/** How long the refund's job waits for its next try, and whether a worker holds it now. */
async function jobWait(reference: string) {
  const { rows } = await testDb().execute<{ wait: number; held: boolean }>(
    sql`SELECT extract(epoch FROM run_at - now())::float AS wait, locked_until IS NOT NULL AS held FROM jobs WHERE kind = 'refund' AND subject = ${reference}`,
  );
  return rows[0];
}

describe('live refunds through Chapa', () => {
  it('asks Chapa to refund the payment by its tx_ref with our reference, and the refund succeeds', async () => {
    const { ref, card } = await paidLive(10_000);
    const res = await live.post(`/api/v1/card/payments/${ref}/refund`, { amount: 2_500, reason: 'Returned' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'succeeded', amount: 2_500, refunded_amount: 2_500, mode: 'live' });
    const sent = (await stack.fake.state()).requests.filter((r) => r.operation === 'refund');
    expect(sent).toHaveLength(1);
    expect(sent[0].path).toBe(`/v1/refund/${ref}`);
    expect(sent[0].body).toMatchObject({ amount: '25.00', reference: res.body.data.refund_reference, reason: 'Returned' });
    expect(await fakeRefunds(ref)).toEqual([expect.objectContaining({ reference: res.body.data.refund_reference, txRef: ref, amount: 2_500 })]);
    expect(await balance(card)).toBe(7_500);
  });

  it('a refusal of the first request puts the whole debit back, answers 502 and sends payment.refund_failed', async () => {
    const { ref, card } = await paidLive(4_000);
    await stack.fake.switches({ failures: { refund: { mode: '401', times: 1 } } });
    const res = await live.post(`/api/v1/card/payments/${ref}/refund`, { amount: 1_000 });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ status: 'error', message: 'Refund request failed' });
    expect(res.body.error).toContain('Chapa refused the refund');
    expect(await balance(card)).toBe(4_000);
    expect((await paymentRecord(ref)).refunded_amount).toBe(0);
    const { rows } = await testDb().execute<{ type: string; body: string }>(
      sql`SELECT type, body FROM webhook_events WHERE subject_reference = ${ref} AND type LIKE 'payment.refund%' ORDER BY id`,
    );
    expect(rows.map((r) => r.type)).toEqual(['payment.refunded', 'payment.refund_failed']);
    expect(JSON.parse(rows[1].body)).toMatchObject({ status: 'failed', amount: 1_000, refunded_amount: 0 });
    expect(await fakeRefunds(ref)).toEqual([]);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('Chapa being down leaves the refund pending; the worker sends it, once', async () => {
    const { ref, card } = await paidLive(6_000);
    await stack.fake.switches({ failures: { refund: { mode: '503', times: 2 } } });
    const res = await live.post(`/api/v1/card/payments/${ref}/refund`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'pending', amount: 6_000, refundable_amount: 0 });
    // The debit holds while Chapa is down: the money is on its way back to the payer.
    expect(await balance(card)).toBe(0);
    const reference = res.body.data.refund_reference as string;
    await poll(async () => (await refundRow(reference)).status).toBe('succeeded');
    expect((await refundRow(reference)).attempts).toBe(3);
    expect(await fakeRefunds(ref)).toEqual([expect.objectContaining({ reference, amount: 6_000 })]);
    expect((await paymentRecord(ref)).refunded_amount).toBe(6_000);
  });

  it('a refund Chapa keeps refusing waits at most the capped ten minutes between tries, however many it has had', async () => {
    const { ref } = await paidLive(2_000);
    await stack.fake.switches({ failures: { refund: { mode: '503', times: 1_000 } } });
    const res = await live.post(`/api/v1/card/payments/${ref}/refund`, {});
    const reference = res.body.data.refund_reference as string;
    await poll(async () => (await refundRow(reference)).attempts).toBeGreaterThanOrEqual(1);
    // Thirty tries in: uncapped, the 200 ms base doubled thirty times would be days.
    // Between tries, so no worker holds the job.
    await poll(async () => (await jobWait(reference)).held).toBe(false);
    await testDb().execute(sql`UPDATE jobs SET attempts = 30, run_at = now() WHERE kind = 'refund' AND subject = ${reference}`);
    await poll(async () => (await refundRow(reference)).attempts).toBe(31);
    await poll(async () => (await jobWait(reference)).held).toBe(false);
    const { wait } = await jobWait(reference);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(600);
    expect((await refundRow(reference)).status).toBe('pending');
  });

  it('a resend Chapa refuses as a used reference counts as the earlier send having arrived', async () => {
    const { ref } = await paidLive(3_000);
    // Chapa takes the refund, but the answer is lost (a 502 from its edge after processing is played by sending it first ourselves).
    await stack.fake.switches({ failures: { refund: { mode: '503', times: 1 } } });
    const res = await live.post(`/api/v1/card/payments/${ref}/refund`, { amount: 1_000 });
    const reference = res.body.data.refund_reference as string;
    await fetch(`${stack.fake.url}/v1/refund/${ref}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CHAPA_TEST_SECRETS.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '10.00', reference }),
    });
    await poll(async () => (await refundRow(reference)).status).toBe('succeeded');
    expect((await fakeRefunds(ref)).filter((r) => r.reference === reference)).toHaveLength(1);
    expect((await paymentRecord(ref)).refunded_amount).toBe(1_000);
  });

  it('a resend refused for another reason is held for a person; the back office then fails it and the debit comes back once', async () => {
    const { ref, card } = await paidLive(3_000);
    await stack.fake.switches({ failures: { refund: { mode: '503', times: 1 } } });
    const res = await live.post(`/api/v1/card/payments/${ref}/refund`, { amount: 2_000 });
    const reference = res.body.data.refund_reference as string;
    expect(await balance(card)).toBe(1_000);
    // Something else takes the whole payment at Chapa first, so our resend is refused, but not as a used reference.
    await fetch(`${stack.fake.url}/v1/refund/${ref}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CHAPA_TEST_SECRETS.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '30.00', reference: `other-${reference}` }),
    });
    await poll(async () => (await refundRow(reference)).attempts).toBeGreaterThanOrEqual(2);
    await poll(async () => (await refundRow(reference)).request_state).toBe('sent');
    expect((await refundRow(reference)).status).toBe('pending');
    // Held for a person: its job is a dead letter, saying why.
    const job = sql`SELECT state, last_error FROM jobs WHERE kind = 'refund' AND subject = ${reference}`;
    await poll(async () => (await testDb().execute<{ state: string }>(job)).rows[0].state).toBe('dead');
    expect((await testDb().execute<{ last_error: string }>(job)).rows[0].last_error).toContain('check this refund with Chapa');
    // The payment's page lists it as needing a person.
    const [pay] = (await testDb().execute<{ id: number; business_id: number }>(sql`SELECT id, business_id FROM payments WHERE link_reference = ${ref}`)).rows;
    const listed = await listPaymentRefunds(testDb(), { businessId: Number(pay.business_id), mode: 'live', paymentId: Number(pay.id) });
    expect(listed.find((r) => r.reference === reference)?.needsPerson).toBe(true);
    const settle = (body: unknown) =>
      fetch(`${stack.baseUrl}/api/admin/refunds/${reference}/settle`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const first = await settle({ status: 'failed', reason: 'Chapa has no refund with this reference.' });
    expect(first.status).toBe(200);
    expect(((await first.json()) as any).data).toMatchObject({ status: 'failed', refunded_amount: 0 });
    const again = await settle({ status: 'succeeded' });
    expect(((await again.json()) as any).data).toMatchObject({ status: 'failed' });
    expect(await balance(card)).toBe(3_000);
    expect((await testDb().execute<{ state: string }>(job)).rows[0].state).toBe('done');
    expect(
      (await listPaymentRefunds(testDb(), { businessId: Number(pay.business_id), mode: 'live', paymentId: Number(pay.id) })).find(
        (r) => r.reference === reference,
      )?.needsPerson,
    ).toBe(false);
    expect((await paymentRecord(ref)).refunded_amount).toBe(0);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });
});
