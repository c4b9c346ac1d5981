import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { LIVE_LOOPS, startLiveStack, type LiveStack } from '../chapa-harness';
import { openLiveShop } from './live-shop';
import { apiClient, randomPhone, testDb, type ApiClient } from '../helpers';

/** A live shop against tools/chapa-fake: the order's payment is made, paid and verified as every live hosted payment is. */
let stack: LiveStack;
let live: ApiClient;
let anyone: ApiClient;
const slug = `live-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  stack = await startLiveStack({ databaseUrl: inject('databaseUrl'), adminToken: inject('adminToken'), loops: LIVE_LOOPS });
  const biz = await stack.createBusiness('Live shop');
  live = apiClient(biz.keys.live, stack.baseUrl);
  anyone = apiClient(undefined, stack.baseUrl);
  await openLiveShop(stack.baseUrl, inject('adminToken'), biz.id, slug);
});
afterAll(async () => {
  await stack?.stop();
});

async function customerPays(ref: string) {
  const state = await stack.fake.state();
  const t = state.stores.transactions?.[ref] ?? Object.values(state.stores.transactions ?? {}).find((x: any) => x.txRef === ref);
  if (!t) throw new Error(`the fake has no transaction ${ref}`);
  return fetch(`${stack.fake.url}/checkout/payment/${(t as any).token}/pay`, { method: 'POST', redirect: 'manual' });
}

describe('a live shop', () => {
  it('pays an order through Chapa’s hosted page; once verify agrees the recipient’s card is issued and credited once', async () => {
    const recipient = randomPhone();
    const placed = await anyone.post(`/api/shop/${slug}/orders`, {
      amount: 50_000,
      recipient: { name: 'Hanna Tesfaye', phone_number: recipient },
      message: 'Enjoy!',
      buyer: { name: 'Abebe Kebede', phone_number: randomPhone() },
    });
    expect(placed.status).toBe(201);
    const { link_reference: ref, order_reference: order } = placed.body.data;
    const init = (await stack.fake.state()).requests.find((r) => r.operation === 'initialize' && r.body.tx_ref === ref)!;
    expect(init.body).toMatchObject({ amount: '500.00', currency: 'ETB', first_name: 'Abebe', last_name: 'Kebede' });
    expect((await anyone.get(`/api/shop/${slug}/orders/${order}`)).body.data.status).toBe('pending');

    expect((await customerPays(ref)).status).toBe(303);
    await expect.poll(async () => (await anyone.get(`/api/shop/${slug}/orders/${order}`)).body.data.status, { timeout: 15_000, interval: 100 }).toBe('paid');
    const listed = (await live.get(`/api/v1/shop/orders?phone=${encodeURIComponent(recipient)}`)).body.data.items;
    expect(listed).toHaveLength(1);
    expect((await live.get(`/api/v1/card/${listed[0].card_number}`)).body.data.available_amount).toBe(50_000);
    const { rows } = await testDb().execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ledger_transactions WHERE reference = ${ref}`);
    expect(rows[0].n).toBe(1);
    const verified = await testDb().execute<{ verify_state: string }>(sql`SELECT verify_state FROM payments WHERE link_reference = ${ref}`);
    expect(verified.rows[0].verify_state).toBe('verified');
  });
});
