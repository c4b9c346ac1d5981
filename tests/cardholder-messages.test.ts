import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cardOfLinkToken } from '../lib/cards/card-links';
import { queueExpiryReminders } from '../lib/messages/expiry-reminders';
import { listBusinessMessages } from '../lib/messages/list-messages';
import { fundCard } from './api/payouts-fixtures';
import { adminClient, apiClient, createCard, createTestBusiness, randomPhone, testDb, type ApiClient, type TestBusiness } from './helpers';

process.env.DATABASE_URL = inject('databaseUrl');

/** Test mode over HTTP against the shared server: every message is recorded with its full text and sent nowhere. */

const messagesOf = async (client: ApiClient, card: string, query = '') => {
  const res = await client.get(`/api/v1/card/${card}/messages${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { items: any[]; total: number; page: number; limit: number; pages: number };
};

/** Waits until the card has `count` messages, every one past queued (test mode's job only records them). */
const settledMessages = async (client: ApiClient, card: string, count: number) => {
  await expect
    .poll(async () => (await messagesOf(client, card)).items.map((m) => m.status), { timeout: 15_000 })
    .toEqual(Array(count).fill('not_sent_test_mode'));
  return (await messagesOf(client, card)).items;
};

const tokenOf = (text: string) => /\/c\/([0-9A-Za-z]{43})/.exec(text)?.[1] ?? '';

let biz: TestBusiness;

beforeAll(async () => {
  biz = await createTestBusiness('Abebe Shop');
});

describe('cardholder messages in test mode', () => {
  it('a card issued with notify gets its link at once, recorded with its full text and sent nowhere', async () => {
    const res = await biz.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Abebe', notify: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const card = res.body.data.card_number as string;
    const [issued] = await settledMessages(biz.test, card, 1);
    expect(issued).toMatchObject({ kind: 'card_issued', channel: 'sms', status: 'not_sent_test_mode', error: null, provider_message_id: null });
    expect(Object.keys(issued)).toEqual(['message_reference', 'kind', 'channel', 'to', 'text', 'status', 'error', 'provider_message_id', 'created_at']);
    expect(issued.text).toMatch(new RegExp(`^Abebe Shop: you have a gift card ending ${card.slice(-4)}\\. .* http://127\\.0\\.0\\.1:\\d+/c/[0-9A-Za-z]{43}$`));
    expect(issued.to).toMatch(/^\+251\*+\d{3}$/);
    expect((await cardOfLinkToken(testDb(), tokenOf(issued.text)))?.cardNumber).toBe(card);
  });

  it('a card issued without notify gets nothing until shared; sharing makes a new link, ends the old one and turns its messages on', async () => {
    const card = (await createCard(biz.test)).card_number as string;
    await fundCard(biz, card, 5_000);
    expect((await biz.test.post(`/api/v1/card/${card}/redemptions`, { amount: 1_000 })).status).toBe(200);
    expect((await messagesOf(biz.test, card)).total).toBe(0);

    const none = await biz.test.post(`/api/v1/card/${card}/share`, { channel: 'none' });
    expect(none.status, JSON.stringify(none.body)).toBe(202);
    expect(none.body.data).toEqual({ link_url: expect.stringMatching(/\/c\/[0-9A-Za-z]{43}$/), status: null, message_reference: null });
    expect((await messagesOf(biz.test, card)).total).toBe(0);

    const shared = await biz.test.post(`/api/v1/card/${card}/share`, { channel: 'sms' });
    expect(shared.status, JSON.stringify(shared.body)).toBe(202);
    expect(shared.body.message).toBe('Gift card link created');
    expect(shared.body.data).toEqual({ link_url: expect.any(String), status: 'not_sent_test_mode', message_reference: expect.stringMatching(/^chm_/) });
    expect(await cardOfLinkToken(testDb(), tokenOf(none.body.data.link_url))).toBeNull();
    expect((await cardOfLinkToken(testDb(), tokenOf(shared.body.data.link_url)))?.cardNumber).toBe(card);

    // From now on its money moves are told: a top-up, a redemption.
    await fundCard(biz, card, 2_550);
    expect((await biz.test.post(`/api/v1/card/${card}/redemptions`, { amount: 1_000 })).status).toBe(200);
    const items = await settledMessages(biz.test, card, 3);
    expect(items.map((m) => m.kind)).toEqual(['money_spent', 'money_added', 'new_link']);
    expect(items[2].message_reference).toBe(shared.body.data.message_reference);
    expect(items[2].text).toContain(shared.body.data.link_url);
    expect(items[1].text).toBe(`Abebe Shop: ETB 25.50 added to your gift card ending ${card.slice(-4)}. Balance now ETB 65.50.`);
    expect(items[0].text).toBe(`Abebe Shop: ETB 10.00 spent from your gift card ending ${card.slice(-4)}. Balance now ETB 55.50.`);
  });

  it('money received card to card and a captured hold are told too', async () => {
    const source = (await createCard(biz.test)).card_number as string;
    await fundCard(biz, source, 10_000);
    const dest = await biz.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Sara', notify: true });
    const card = dest.body.data.card_number as string;
    const payout = await biz.test.post('/api/v1/card/payouts', { card_number: source, amount: 3_000, destination_card_number: card });
    expect(payout.status, JSON.stringify(payout.body)).toBe(200);
    const hold = await biz.test.post(`/api/v1/card/${card}/holds`, { amount: 1_000 });
    expect(hold.status, JSON.stringify(hold.body)).toBe(201);
    const captured = await biz.test.post(`/api/v1/card/holds/${hold.body.data.hold_reference}/capture`, { amount: 500 });
    expect(captured.status, JSON.stringify(captured.body)).toBe(200);
    const items = await settledMessages(biz.test, card, 3);
    expect(items.map((m) => m.kind)).toEqual(['money_spent', 'money_added', 'card_issued']);
    expect(items[1].text).toMatch(/^Abebe Shop: ETB 30\.00 added .* Balance now ETB 30\.00\.$/);
    expect(items[0].text).toMatch(/^Abebe Shop: ETB 5\.00 spent .* Balance now ETB 25\.00\.$/);
  });

  it('a batch item with notify gets its link; one without gets nothing', async () => {
    const res = await biz.test.post('/api/v1/card/batch', {
      cards: [
        { phone_number: randomPhone(), currency: 'ETB', first_name: 'A', notify: true },
        { phone_number: randomPhone(), currency: 'ETB', first_name: 'B' },
        { phone_number: randomPhone(), currency: 'ETB', first_name: 'C', notify: 'yes' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [a, b, c] = res.body.data.results;
    expect(c).toEqual({ status: 'error', message: 'Validation error', error: { notify: 'notify must be true or false.' } });
    expect((await settledMessages(biz.test, a.card_number, 1))[0].kind).toBe('card_issued');
    expect((await messagesOf(biz.test, b.card_number)).total).toBe(0);
  });

  it('speaks the business’s customer language and calendar, and leaves out a kind the business turned off', async () => {
    const am = await createTestBusiness('አበበ ሱቅ');
    expect((await adminClient().put(`/api/admin/businesses/${am.id}/locale`, { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(200);
    await testDb().execute(sql`UPDATE businesses SET message_kinds_off = '{money_spent}' WHERE id = ${am.id}`);
    const res = await am.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Abebe', notify: true });
    const card = res.body.data.card_number as string;
    await fundCard(am, card, 10_000);
    expect((await am.test.post(`/api/v1/card/${card}/redemptions`, { amount: 1_000 })).status).toBe(200);
    const items = await settledMessages(am.test, card, 2);
    expect(items.map((m) => m.kind)).toEqual(['money_added', 'card_issued']);
    expect(items[0].text).toBe(`አበበ ሱቅ፦ ብር 100.00 ወደ ስጦታ ካርድዎ (…${card.slice(-4)}) ገብቷል። ቀሪ ሂሳብ ብር 100.00።`);
    expect(items[1].text).toMatch(/^አበበ ሱቅ፦ የስጦታ ካርድ \(…\d{4}\) ደርሶዎታል፦ http/);
  });

  it('reminds 30 and 7 days before expiry, once each', async () => {
    const res = await biz.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Abebe', notify: true });
    const card = res.body.data.card_number as string;
    await settledMessages(biz.test, card, 1);
    await testDb().execute(sql`UPDATE cards SET expires_at = now() + interval '29 days 12 hours' WHERE card_number = ${card}`);
    await queueExpiryReminders(testDb(), 30);
    await queueExpiryReminders(testDb(), 30);
    await queueExpiryReminders(testDb(), 7);
    await testDb().execute(sql`UPDATE cards SET expires_at = now() + interval '6 days 12 hours' WHERE card_number = ${card}`);
    await queueExpiryReminders(testDb(), 7);
    await queueExpiryReminders(testDb(), 7);
    const items = await settledMessages(biz.test, card, 3);
    expect(items.map((m) => m.kind)).toEqual(['expiry_7_days', 'expiry_30_days', 'card_issued']);
    expect(items[0].text).toMatch(/expires on \d{1,2} \w+ \d{4}, in 7 days\. Balance ETB 0\.00\.$/);
  });

  it('lists newest first in pages, and refuses what it must', async () => {
    const res = await biz.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: 'Abebe', notify: true });
    const card = res.body.data.card_number as string;
    await biz.test.post(`/api/v1/card/${card}/share`, { channel: 'sms' });
    await biz.test.post(`/api/v1/card/${card}/share`, { channel: 'sms' });
    const all = await settledMessages(biz.test, card, 3);
    const page2 = await messagesOf(biz.test, card, '?limit=2&page=2');
    expect(page2).toMatchObject({ total: 3, page: 2, limit: 2, pages: 2 });
    expect(page2.items.map((m) => m.message_reference)).toEqual([all[2].message_reference]);
    const typed = await biz.test.typed.listCardMessages(card, { limit: 1 });
    expect(typed.status === 'success' && typed.data.items[0].message_reference).toBe(all[0].message_reference);

    const bad = await biz.test.post(`/api/v1/card/${card}/share`, { channel: 'fax' });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ status: 'error', message: 'Validation error', error: { channel: 'channel must be one of sms, email, none.' } });
    const email = await biz.test.post(`/api/v1/card/${card}/share`, { channel: 'email' });
    expect(email.status).toBe(400);
    expect(email.body.error).toEqual({ channel: 'This card holder has no email address.' });
    expect((await biz.test.post(`/api/v1/card/${card}/share`, {})).body.error).toEqual({ channel: 'channel is required.' });
    expect((await messagesOf(biz.test, card)).total).toBe(3);
    const other = await createTestBusiness('Another');
    expect((await other.test.get(`/api/v1/card/${card}/messages`)).status).toBe(404);
    expect((await other.test.post(`/api/v1/card/${card}/share`, { channel: 'sms' })).status).toBe(404);
    expect((await biz.test.get('/api/v1/card/12/messages')).status).toBe(404);
    expect((await biz.test.get(`/api/v1/card/${card}/messages?limit=0`)).status).toBe(400);
  });

  it('the Messages page’s list filters by status, kind, period and phone, within the business and mode', async () => {
    const phone = randomPhone();
    const res = await biz.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Abebe', notify: true });
    const card = res.body.data.card_number as string;
    await biz.test.post(`/api/v1/card/${card}/share`, { channel: 'sms' });
    await settledMessages(biz.test, card, 2);
    const list = (filters: Parameters<typeof listBusinessMessages>[1]['filters']) =>
      listBusinessMessages(testDb(), { businessId: biz.id, mode: 'test', filters, page: { limit: 10, offset: 0, page: 1 } });
    const byPhone = await list({ to_address: phone.slice(-7) });
    expect(byPhone.items.map((m) => [m.kind, m.card_number])).toEqual([
      ['new_link', card],
      ['card_issued', card],
    ]);
    expect((await list({ to_address: phone.slice(-7), kind: 'card_issued' })).total).toBe(1);
    expect((await list({ to_address: phone.slice(-7), status: 'failed' })).total).toBe(0);
    expect((await list({ to_address: phone.slice(-7), from: new Date(Date.now() + 60_000) })).total).toBe(0);
    expect((await list({ to_address: phone.slice(-7), to: new Date(Date.now() + 60_000), from: new Date(Date.now() - 600_000) })).total).toBe(2);
    expect((await list({ to_address: '%' })).total).toBe(0);
    expect(
      (
        await listBusinessMessages(testDb(), {
          businessId: biz.id,
          mode: 'live',
          filters: { to_address: phone.slice(-7) },
          page: { limit: 10, offset: 0, page: 1 },
        })
      ).total,
    ).toBe(0);
  });

  it('never writes a full card number in any message', async () => {
    const { rows } = await testDb().execute<{ text: string | null; card_number: string }>(sql`
      SELECT m.text, c.card_number FROM cardholder_messages m JOIN cards c ON c.id = m.card_id`);
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      expect(r.text).not.toBeNull();
      // Outside its link (whose host may carry a port) no run of five digits: at most the last four of the card.
      expect(r.text!.replace(/https?:\/\/\S+/g, '')).not.toMatch(/\d{5,}/);
      expect(r.text).not.toContain(r.card_number);
      expect(r.text).not.toContain(r.card_number.slice(0, 12));
    }
  });
});

it('scopes: a read key lists, only the cards scope shares', async () => {
  const keys = await adminClient().post(`/api/admin/businesses/${biz.id}/api-keys`, { mode: 'test', name: 'Only read', scopes: ['read'] });
  expect(keys.status, JSON.stringify(keys.body)).toBe(201);
  const reader = apiClient(keys.body.data.key);
  const card = (await createCard(biz.test)).card_number as string;
  expect((await reader.get(`/api/v1/card/${card}/messages`)).status).toBe(200);
  expect((await reader.post(`/api/v1/card/${card}/share`, { channel: 'none' })).status).toBe(403);
});
