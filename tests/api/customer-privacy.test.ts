import { beforeAll, describe, expect, it } from 'vitest';
import { cardStory } from '../../lib/dashboard/card-story';
import { searchCards } from '../../lib/dashboard/search-cards';
import { createTestBusiness, randomPhone, testDb, type TestBusiness } from '../helpers';
import { fundCard } from './payouts-fixtures';

const SECRET = /Alice|Secretsurname/;

describe('a customer name belongs to the business that gave it', () => {
  let a: TestBusiness;
  let b: TestBusiness;
  const phone = randomPhone();
  const national = phone.slice(4);
  let aCard: string;
  let bCard: string;

  beforeAll(async () => {
    a = await createTestBusiness('Privacy A');
    b = await createTestBusiness('Privacy B');
    const created = await a.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Alice', last_name: 'Secretsurname' });
    expect(created.status).toBe(201);
    aCard = created.body.data.card_number;
    const known = await b.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB' });
    expect(known.status, JSON.stringify(known.body)).toBe(201);
    bCard = known.body.data.card_number;
  });

  const eventsOf = async (biz: TestBusiness) => {
    const res = await biz.test.get('/api/v1/events?limit=100');
    expect(res.status).toBe(200);
    return res.body.data.items as { type: string; payload: Record<string, unknown> & { customer?: Record<string, string> } }[];
  };

  it('a phone known only from another business needs no first_name, and the card carries no name', async () => {
    const detail = await b.test.get(`/api/v1/card/${bCard}`);
    expect(detail.body.data.name).toBe('');
    const filtered = await b.test.get(`/api/v1/card?phone_number=${national}`);
    expect(filtered.body.data.items.map((c: { card_number: string; name: string }) => [c.card_number, c.name])).toEqual([[bCard, '']]);
    const list = await b.test.get('/api/v1/card');
    expect(JSON.stringify(list.body)).not.toMatch(SECRET);
    expect((await a.test.get(`/api/v1/card/${aCard}`)).body.data.name).toBe('Alice Secretsurname');
  });

  it('a phone new to the service without first_name is still 404 User not found', async () => {
    const res = await b.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB' });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', message: 'User not found' });
  });

  it("B's payment and payout events carry the phone only; A's carry A's name", async () => {
    const payment = await b.test.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: bCard });
    expect(payment.status).toBe(201);
    expect((await b.test.post(`/api/v1/test-helpers/payments/${payment.body.data.link_reference}/complete`, { status: 'success' })).status).toBe(200);
    await fundCard(b, bCard, 50_000);
    // Twice: the second payout may be answered from the payout path's memory of the card.
    for (let i = 0; i < 2; i++) {
      const c2c = await b.test.post('/api/v1/card/payouts', { card_number: bCard, destination_card_number: aCard, amount: 1_000 });
      expect(c2c.status, JSON.stringify(c2c.body)).toBe(200);
    }
    const bank = await b.test.post('/api/v1/card/payouts', {
      card_number: bCard,
      amount: 1_000,
      bank_slug: 'cbe',
      account_number: '1000123456123',
      account_name: 'Someone',
    });
    expect(bank.status, JSON.stringify(bank.body)).toBe(200);
    expect((await b.test.post(`/api/v1/test-helpers/payouts/${bank.body.data.provider_reference}/settle`, { status: 'success' })).status).toBe(200);

    const events = await eventsOf(b);
    const withCustomer = events.filter((e) => e.payload.customer);
    expect(withCustomer.map((e) => e.type).sort()).toEqual(['payment.success', 'payout.success', 'payout.success', 'payout.success']);
    for (const e of withCustomer) expect(e.payload.customer).toEqual({ phone_number: phone });
    expect(JSON.stringify(events)).not.toMatch(SECRET);

    const aPayment = await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: aCard });
    await a.test.post(`/api/v1/test-helpers/payments/${aPayment.body.data.link_reference}/complete`, { status: 'success' });
    const [aEvent] = await eventsOf(a);
    expect(aEvent.payload.customer).toEqual({ first_name: 'Alice', last_name: 'Secretsurname', phone_number: phone });
  });

  it("the dashboard's card search and card page show B nothing of A's", async () => {
    for (const query of [phone, national, `0${national}`, bCard]) {
      const page = await searchCards(testDb(), { businessId: b.id, mode: 'test', query, limit: 25 });
      expect(page.items.map((c) => c.card_number)).toEqual([bCard]);
      expect(page.items[0]).toMatchObject({ first_name: null, last_name: null, email: null });
    }
    expect((await searchCards(testDb(), { businessId: b.id, mode: 'test', query: 'Alice', limit: 25 })).items).toEqual([]);
    const story = await cardStory(testDb(), { businessId: b.id, mode: 'test', cardNumber: bCard, limit: 50 });
    expect(story.events.length).toBeGreaterThan(0);
    expect(JSON.stringify(story)).not.toMatch(SECRET);
  });

  it('B names the same phone "Bob": B sees Bob on every card of its own, A still sees Alice', async () => {
    const named = await b.test.post('/api/v1/card', { phone_number: phone, currency: 'USD', first_name: 'Bob' });
    expect(named.status).toBe(201);
    expect(named.body.data.name).toBe('Bob');
    expect((await b.test.get(`/api/v1/card/${bCard}`)).body.data.name).toBe('Bob');
    const payout = await b.test.post('/api/v1/card/payouts', { card_number: bCard, destination_card_number: aCard, amount: 1_000 });
    expect(payout.status).toBe(200);
    const [latest] = await eventsOf(b);
    expect(latest.payload.customer).toEqual({ first_name: 'Bob', phone_number: phone });

    expect((await a.test.get(`/api/v1/card/${aCard}`)).body.data.name).toBe('Alice Secretsurname');
    const aList = await a.test.get(`/api/v1/card?phone_number=${national}`);
    expect(aList.body.data.items.map((c: { name: string }) => c.name)).toEqual(['Alice Secretsurname']);
    const [aSearch] = (await searchCards(testDb(), { businessId: a.id, mode: 'test', query: phone, limit: 25 })).items;
    expect(aSearch).toMatchObject({ first_name: 'Alice', last_name: 'Secretsurname' });
  });

  it('the first name a business gives stays: a later first_name for the same phone renames nothing', async () => {
    const again = await a.test.post('/api/v1/card', { phone_number: phone, currency: 'DJF', first_name: 'Alicia', last_name: 'Other' });
    expect(again.status).toBe(201);
    expect(again.body.data.name).toBe('Alice Secretsurname');
    expect((await a.test.get(`/api/v1/card/${aCard}`)).body.data.name).toBe('Alice Secretsurname');
    expect((await b.test.get(`/api/v1/card/${bCard}`)).body.data.name).toBe('Bob');
  });

  it('a refused card changes no name', async () => {
    const c = await createTestBusiness('Privacy C');
    expect((await c.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB' })).status).toBe(201);
    const refused = await c.test.post('/api/v1/card', { phone_number: phone, currency: 'ETB', first_name: 'Carol' });
    expect(refused.status).toBe(409);
    const list = await c.test.get(`/api/v1/card?phone_number=${national}`);
    expect(list.body.data.items.map((i: { name: string }) => i.name)).toEqual(['']);
  });
});
