import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDb, type Db } from '../../lib/db/client';
import { afroMessageEnv, type AfroMessageFakeProcess, startAfroMessageFake } from '../afromessage-harness';
import { startLiveStack, type LiveStack } from '../chapa-harness';
import { openLiveShop } from './live-shop';
import { apiClient, randomPhone, type ApiClient } from '../helpers';
import { createScratchDatabase } from '../test-server';

/**
 * A live shop against tools/chapa-fake and tools/afromessage-fake, both over real HTTP: the order is paid on the fake's
 * hosted page and verified, and the recipient's gift and the buyer's receipt go out by SMS, once each. A scratch
 * database of its own: the shared server, without AFROMESSAGE_TOKEN, would fail live messages as unconfigured.
 */
const ADMIN = 'adm_shop_live_messages_0123456789abcdef';
let stack: LiveStack;
let sms: AfroMessageFakeProcess;
let db: Db;
let endPool: () => Promise<void>;
let live: ApiClient;
let anyone: ApiClient;
const slug = `gifts-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  const url = await createScratchDatabase(inject('databaseUrl'), 'shop_live_messages');
  const handle = createDb(url, 4);
  db = handle.db;
  endPool = () => handle.pool.end();
  sms = await startAfroMessageFake();
  stack = await startLiveStack({ databaseUrl: url, adminToken: ADMIN, env: afroMessageEnv(sms.url) });
  const biz = await stack.createBusiness('Tomoca Coffee');
  live = apiClient(biz.keys.live, stack.baseUrl);
  anyone = apiClient(undefined, stack.baseUrl);
  await openLiveShop(stack.baseUrl, ADMIN, biz.id, slug);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  await sms?.stop();
  await endPool?.();
});

async function customerPays(ref: string) {
  const state = await stack.fake.state();
  const t = state.stores.transactions?.[ref] ?? Object.values(state.stores.transactions ?? {}).find((x: any) => x.txRef === ref);
  if (!t) throw new Error(`the fake has no transaction ${ref}`);
  return fetch(`${stack.fake.url}/checkout/payment/${(t as any).token}/pay`, { method: 'POST', redirect: 'manual' });
}

describe('a live shop order', () => {
  it('paid on Chapa’s page and verified: the recipient gets one gift SMS and the buyer one receipt SMS, nothing else', async () => {
    const recipient = randomPhone();
    const buyer = randomPhone();
    const placed = await anyone.post(`/api/shop/${slug}/orders`, {
      amount: 50_000,
      recipient: { name: 'Hanna Tesfaye', phone_number: recipient },
      message: 'Happy birthday, Hanna! Coffee is on me.',
      buyer: { name: 'Abebe Kebede', phone_number: buyer },
    });
    expect(placed.status).toBe(201);
    const { link_reference: ref, order_reference: order } = placed.body.data;

    expect((await customerPays(ref)).status).toBe(303);
    await expect.poll(async () => (await anyone.get(`/api/shop/${slug}/orders/${order}`)).body.data.status, { timeout: 20_000, interval: 100 }).toBe('paid');
    const [card] = (await live.get(`/api/v1/shop/orders?phone=${encodeURIComponent(recipient)}`)).body.data.items;
    expect((await live.get(`/api/v1/card/${card.card_number}`)).body.data.available_amount).toBe(50_000);
    const verified = await db.execute<{ verify_state: string }>(sql`SELECT verify_state FROM payments WHERE link_reference = ${ref}`);
    expect(verified.rows[0].verify_state).toBe('verified');

    // Both taken by AfroMessage, each sent once, and delivered (the fake calls each one's callback).
    const statuses = async () =>
      (
        await db.execute<{ kind: string; status: string; sends: number }>(sql`
          SELECT m.kind, m.status, m.sends FROM cardholder_messages m JOIN shop_orders o ON o.id = m.order_id WHERE o.reference = ${order} ORDER BY m.kind`)
      ).rows;
    await expect.poll(async () => (await statuses()).map((m) => m.status), { timeout: 20_000, interval: 100 }).toEqual(['delivered', 'delivered']);
    expect(await statuses()).toEqual([
      { kind: 'gift_received', status: 'delivered', sends: 1 },
      { kind: 'order_receipt', status: 'delivered', sends: 1 },
    ]);
    const received = (await sms.state()).messages;
    const toRecipient = received.filter((m) => m.to === recipient);
    const toBuyer = received.filter((m) => m.to === buyer);
    expect(toRecipient).toHaveLength(1);
    expect(toBuyer).toHaveLength(1);
    expect(toRecipient[0].message).toMatch(
      /^Tomoca Coffee: Abebe Kebede sent you a gift card of ETB 500\.00\. "Happy birthday, Hanna! Coffee is on me\." See it and spend it here: http\S+\/c\/[0-9A-Za-z]{43}$/,
    );
    expect(toBuyer[0].message).toContain(order);
    expect(toBuyer[0].message).not.toContain(card.card_number.slice(-4));
    // Nothing else went to either: no card_issued, no money_added.
    const all = await db.execute<{ kind: string }>(sql`SELECT kind FROM cardholder_messages WHERE to_address IN (${recipient}, ${buyer}) ORDER BY kind`);
    expect(all.rows.map((r) => r.kind)).toEqual(['gift_received', 'order_receipt']);

    // The link in the SMS opens the recipient's card with the buyer's message on it.
    const link = /(http\S+\/c\/[0-9A-Za-z]{43})$/.exec(toRecipient[0].message)![1];
    const page = await fetch(`${stack.baseUrl}${new URL(link).pathname}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Happy birthday, Hanna! Coffee is on me.');
  });
});
