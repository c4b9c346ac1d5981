import { beforeAll, describe, expect, it } from 'vitest';
import { cardStory } from '../lib/dashboard/card-story';
import { searchCards } from '../lib/dashboard/search-cards';
import { adminClient, createCard, createTestBusiness, randomPhone, testDb, type TestBusiness } from './helpers';

describe('dashboard card queries', () => {
  let a: TestBusiness;
  let b: TestBusiness;
  const phones = [randomPhone(), randomPhone(), randomPhone()];
  const numbers: string[] = [];
  let foreignCard: string;

  beforeAll(async () => {
    a = await createTestBusiness('Search A');
    b = await createTestBusiness('Search B');
    for (const phone of phones) numbers.push((await createCard(a.test, 'ETB', phone)).card_number);
    foreignCard = (await createCard(b.test, 'ETB', phones[0])).card_number;
  });

  const scope = () => ({ businessId: a.id, mode: 'test' as const, limit: 25 });
  const found = async (query: string) => (await searchCards(testDb(), { ...scope(), query })).items.map((c) => c.card_number);

  it('finds a card by national number with or without its trunk 0, by E.164, and by card number; only in its own business', async () => {
    const national = phones[1].slice(4);
    expect(await found(national)).toEqual([numbers[1]]);
    expect(await found(`0${national}`)).toEqual([numbers[1]]);
    expect(await found(phones[1])).toEqual([numbers[1]]);
    expect(await found(numbers[2].replace(/(\d{4})/g, '$1 '))).toEqual([numbers[2]]);
    expect(await found(foreignCard)).toEqual([]);
    expect(await found('not a number')).toEqual([]);
    // The same customer holds a card at business B: A's search shows only A's card.
    expect(await found(phones[0])).toEqual([numbers[0]]);
  });

  it('filters by status and leaves the total out when filtered', async () => {
    expect((await a.test.patch(`/api/v1/card/${numbers[0]}`, { status: 'disable' })).status).toBe(200);
    const disabled = await searchCards(testDb(), { ...scope(), status: 'disabled' });
    expect(disabled.items.map((c) => c.card_number)).toEqual([numbers[0]]);
    expect(disabled.total).toBeNull();
    const active = await searchCards(testDb(), { ...scope(), status: 'active' });
    expect(active.items.map((c) => c.card_number)).toEqual([numbers[2], numbers[1]]);
    const all = await searchCards(testDb(), scope());
    expect(all.total).toBe(3);
    expect(all.items.map((c) => c.card_number)).toEqual([...numbers].reverse());
  });

  it('pages newest first by keyset both ways without repeats, and ignores a cursor of another business', async () => {
    const one = { ...scope(), limit: 1 };
    const p1 = await searchCards(testDb(), one);
    const p2 = await searchCards(testDb(), { ...one, after: p1.nextAfter! });
    const p3 = await searchCards(testDb(), { ...one, after: p2.nextAfter! });
    expect([p1, p2, p3].map((p) => p.items[0].card_number)).toEqual([...numbers].reverse());
    expect(p1.prevBefore).toBeNull();
    expect(p3.nextAfter).toBeNull();
    const back = await searchCards(testDb(), { ...one, before: p3.prevBefore! });
    expect(back.items[0].card_number).toBe(p2.items[0].card_number);
    expect(back.nextAfter).not.toBeNull();
    expect(back.prevBefore).not.toBeNull();
    const foreign = await searchCards(testDb(), { businessId: b.id, mode: 'test', limit: 5 });
    const foreignId = Number(foreign.items[0].id);
    expect((await searchCards(testDb(), { ...one, after: foreignId })).items).toEqual([]);
  });

  it("the card's story lists every movement with the balance after it, and refuses another business", async () => {
    const card = numbers[2];
    await adminClient().post(`/api/admin/businesses/${a.id}/balance`, { mode: 'test', currency: 'ETB', amount: 10_000 });
    for (const amount of [700, 300]) {
      const t = await a.test.post('/api/v1/transfers', { amount, bank_slug: 'link', account_number: card, account_name: 'Top-up' });
      expect(t.status).toBeLessThan(300);
      const settled = await a.test.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
      expect(settled.status).toBe(200);
    }
    const story = await cardStory(testDb(), { businessId: a.id, mode: 'test', cardNumber: card, limit: 10 });
    const movements = story.events.filter((e) => e.kind === 'movement');
    expect(movements.map((e) => [e.title, e.amount, e.balanceAfter])).toEqual([
      ['Top-up from business balance', 300, 1000],
      ['Top-up from business balance', 700, 700],
    ]);
    expect(story.businessBalance).toBe(9_000);
    const first = await cardStory(testDb(), { businessId: a.id, mode: 'test', cardNumber: card, limit: 1 });
    expect(first.older).toBe(first.events[0].key);
    await expect(cardStory(testDb(), { businessId: b.id, mode: 'test', cardNumber: card, limit: 10 })).rejects.toMatchObject({ code: 'card_not_found' });
    await expect(cardStory(testDb(), { businessId: a.id, mode: 'live', cardNumber: card, limit: 10 })).rejects.toMatchObject({ code: 'card_not_found' });
  });
});
