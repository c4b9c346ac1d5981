import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { cancelCard } from '../lib/cards/cancel-card';
import { searchCards } from '../lib/dashboard/search-cards';
import { searchPayments } from '../lib/dashboard/search-payments';
import { parsePayoutFilters, searchPayouts } from '../lib/dashboard/search-payouts';
import { ServiceError } from '../lib/errors';
import { searchEverything, type SearchResults } from '../lib/search/search-everything';
import { phoneCandidates } from '../lib/search/phone-candidates';
import { adminClient, createTestBusiness, randomPhone, testDb, type TestBusiness } from './helpers';

describe('the dashboard search', () => {
  const tag = randomBytes(4).toString('hex');
  let a: TestBusiness;
  let b: TestBusiness;
  let supplier: TestBusiness;
  const phone = randomPhone();
  const national = phone.slice(4); // 9 digits after +251
  let abebe: string; // A's card for Abebe Kebede
  let other: string; // A's second card
  let cancelled: string; // A's cancelled card
  let bSame: string; // B's card for the same phone, named Bob Secretname by B
  let payoutRef: string;
  let linkRef: string;
  const order = `ORD-1005-${tag}`;

  const search = (biz: TestBusiness, query: string, extra: Partial<Parameters<typeof searchEverything>[1]> = {}) =>
    searchEverything(testDb(), { businessId: biz.id, mode: 'test', role: 'owner', country: 'ET', query, ...extra });
  const cardsOf = (r: SearchResults) => (r.cards ?? []).map((c) => c.cardNumber);

  beforeAll(async () => {
    a = await createTestBusiness(`Search shop ${tag}`);
    b = await createTestBusiness(`Other shop ${tag}`);
    supplier = await createTestBusiness(`Zebra Roasters ${tag}`);
    const card = async (biz: TestBusiness, body: Record<string, string>) => {
      const res = await biz.test.post('/api/v1/card', { currency: 'ETB', ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data.card_number as string;
    };
    abebe = await card(a, { phone_number: phone, first_name: 'Abebe', last_name: 'Kebede' });
    other = await card(a, { phone_number: randomPhone(), first_name: 'Tigist', last_name: 'Haile' });
    cancelled = await card(a, { phone_number: randomPhone(), first_name: 'Gone', last_name: `Cancelled${tag}` });
    await cancelCard(testDb(), { businessId: a.id, mode: 'test', cardNumber: cancelled, actor: { type: 'user', id: null } });
    bSame = await card(b, { phone_number: phone, first_name: 'Bob', last_name: 'Secretname' });

    await adminClient().post(`/api/admin/businesses/${a.id}/balance`, { mode: 'test', currency: 'ETB', amount: 10_000 });
    const topup = await a.test.post('/api/v1/transfers', { amount: 700, bank_slug: 'link', account_number: abebe, account_name: 'Top-up' });
    expect(topup.status, JSON.stringify(topup.body)).toBeLessThan(300);
    payoutRef = topup.body.data.provider_reference;
    const payment = await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: abebe, merchant_reference: order });
    expect(payment.status, JSON.stringify(payment.body)).toBeLessThan(300);
    linkRef = payment.body.data.link_reference;
  });

  it('reads a phone in every form a person types it, with the business country', () => {
    const forms = ['+251 911 234 567', '251911234567', '00251911234567', '0911 234 567', '911-234-567', '(0911) 234567'];
    for (const form of forms) expect(phoneCandidates(form, 'ET')?.national, form).toContain('911234567');
    expect(phoneCandidates('251911234567', 'ET')?.e164).toContain('+251911234567');
    expect(phoneCandidates('abebe', 'ET')).toBeNull();
    expect(phoneCandidates('8420', 'ET')).toBeNull();
  });

  it('finds a card by its number with or without spaces or dashes, and by its last four digits', async () => {
    expect(cardsOf(await search(a, abebe))).toEqual([abebe]);
    expect(cardsOf(await search(a, abebe.replace(/(\d{4})(?!$)/g, '$1 ')))).toEqual([abebe]);
    expect(cardsOf(await search(a, abebe.replace(/(\d{4})(?!$)/g, '$1-')))).toEqual([abebe]);
    expect(cardsOf(await search(a, abebe.slice(-4)))).toContain(abebe);
    expect(cardsOf(await search(a, other.slice(-4)))).toContain(other);
  });

  it('finds a card by any part of the holder name, in any case, and shows the name', async () => {
    for (const q of ['abebe', 'KEBEDE', 'ebe keb', 'Abebe Kebede', ' tigist ']) {
      const found = await search(a, q);
      expect(found.cards!.length, q).toBeGreaterThan(0);
    }
    const [hit] = (await search(a, 'ebe keb')).cards!;
    expect(hit).toMatchObject({ cardNumber: abebe, holder: 'Abebe Kebede', status: 'active' });
    expect(cardsOf(await search(a, 'haile'))).toEqual([other]);
    // A LIKE wildcard is taken literally.
    expect(cardsOf(await search(a, '%%%'))).toEqual([]);
    expect(cardsOf(await search(a, 'a_e'))).toEqual([]);
  });

  it('finds a card by phone in every typed form', async () => {
    for (const q of [
      phone,
      `+251 ${national.slice(0, 3)} ${national.slice(3)}`,
      `251${national}`,
      `0${national}`,
      national,
      `0${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`,
    ]) {
      expect(cardsOf(await search(a, q)), q).toEqual([abebe]);
    }
  });

  it('never matches or shows the name another business gave the same person', async () => {
    // B named the same phone "Bob Secretname": A's search for Bob finds nothing; B's for Abebe finds nothing.
    expect(cardsOf(await search(a, 'Secretname'))).toEqual([]);
    expect(cardsOf(await search(a, 'bob'))).not.toContain(bSame);
    expect(cardsOf(await search(b, 'Abebe Kebede'))).toEqual([]);
    expect(cardsOf(await search(b, 'kebede'))).toEqual([]);
    // B finds its own card by the shared phone, with its own name only.
    const [mine] = (await search(b, `0${national}`)).cards!;
    expect(mine).toMatchObject({ cardNumber: bSame, holder: 'Bob Secretname' });
    expect(JSON.stringify(await search(b, `0${national}`))).not.toMatch(/Abebe|Kebede/);
    // And the cards list's search is the same condition.
    expect((await searchCards(testDb(), { businessId: b.id, mode: 'test', query: 'abebe', limit: 25 })).items).toEqual([]);
  });

  it('is scoped to the business and the mode', async () => {
    for (const q of [abebe, abebe.slice(-4), 'Abebe', payoutRef, linkRef, order]) {
      const r = await search(b, q);
      expect(cardsOf(r), q).not.toContain(abebe);
      expect(r.payouts, q).toEqual([]);
      expect(r.payments, q).toEqual([]);
      const live = await search(a, q, { mode: 'live' });
      expect(live.cards, q).toEqual([]);
      expect(live.payouts, q).toEqual([]);
      expect(live.payments, q).toEqual([]);
    }
  });

  it('finds cancelled cards, marked cancelled; the card list shows them under All and under the cancelled status', async () => {
    const [hit] = (await search(a, `cancelled${tag}`)).cards!;
    expect(hit).toMatchObject({ cardNumber: cancelled, status: 'cancelled' });
    expect(cardsOf(await search(a, cancelled.slice(-4)))).toContain(cancelled);
    const list = await searchCards(testDb(), { businessId: a.id, mode: 'test', limit: 25 });
    expect(list.items.map((c) => c.card_number)).toContain(cancelled);
    const active = await searchCards(testDb(), { businessId: a.id, mode: 'test', status: 'active', limit: 25 });
    expect(active.items.map((c) => c.card_number)).not.toContain(cancelled);
    const onlyCancelled = await searchCards(testDb(), { businessId: a.id, mode: 'test', status: 'cancelled', limit: 25 });
    expect(onlyCancelled.items.map((c) => c.card_number)).toEqual([cancelled]);
  });

  it('finds a payout by its reference and a payment by link reference or any part of the order id', async () => {
    expect((await search(a, payoutRef)).payouts!.map((p) => p.reference)).toEqual([payoutRef]);
    expect((await search(a, linkRef)).payments!.map((p) => p.linkReference)).toEqual([linkRef]);
    for (const q of [order, order.toLowerCase(), `1005-${tag}`]) {
      const [hit] = (await search(a, q)).payments!;
      expect(hit, q).toMatchObject({ linkReference: linkRef, merchantReference: order, amount: 1_000, currency: 'ETB' });
    }
    // The lists take the same search.
    const payouts = await searchPayouts(testDb(), { businessId: a.id, mode: 'test', timeZone: 'UTC', filters: { q: payoutRef }, limit: 10 });
    expect(payouts.rows.map((p) => p.reference)).toEqual([payoutRef]);
    expect((await searchPayouts(testDb(), { businessId: a.id, mode: 'test', timeZone: 'UTC', filters: { q: 'nothing-like-it' }, limit: 10 })).rows).toEqual([]);
    const payments = await searchPayments(testDb(), { businessId: a.id, mode: 'test', timeZone: 'UTC', filters: { q: `1005-${tag}` }, limit: 10 });
    expect(payments.rows.map((p) => p.linkReference)).toEqual([linkRef]);
    expect((await searchPayments(testDb(), { businessId: b.id, mode: 'test', timeZone: 'UTC', filters: { q: order }, limit: 10 })).rows).toEqual([]);
  });

  it('finds another business by any part of its name or its merchant id, never itself, with its name and merchant id only', async () => {
    const byName = await search(a, `zebra roasters ${tag}`);
    expect(byName.businesses).toEqual([{ name: supplier.name, merchantId: supplier.merchant_id }]);
    expect((await search(a, supplier.merchant_id)).businesses).toEqual([{ name: supplier.name, merchantId: supplier.merchant_id }]);
    expect((await search(a, a.merchant_id)).businesses).toEqual([]);
    expect((await search(a, `Search shop ${tag}`)).businesses).toEqual([]);
  });

  it('gives each role only the kinds it may see', async () => {
    const support = await search(a, order, { role: 'support' });
    expect(support.cards).toEqual([]);
    expect(support.payouts).toBeUndefined();
    expect(support.payments).toBeUndefined();
    expect(support.businesses).toBeUndefined();
    const finance = await search(a, order, { role: 'finance' });
    expect(finance.payments).toHaveLength(1);
    expect(finance.businesses).toBeUndefined();
    expect((await search(a, 'abebe', { role: 'support' })).cards!.map((c) => c.cardNumber)).toEqual([abebe]);
  });

  it('refuses an empty search and one longer than 100 characters', async () => {
    await expect(search(a, '   ')).rejects.toBeInstanceOf(ServiceError);
    await expect(search(a, 'x'.repeat(101))).rejects.toThrow(ServiceError);
    expect((await search(a, 'x'.repeat(100))).cards).toEqual([]);
  });

  it('refuses control characters in the header search, and the lists read them as spaces (PostgreSQL refuses a NUL)', async () => {
    await expect(search(a, 'abe\u0000')).rejects.toMatchObject({ code: 'validation_error', detail: { q: 'Search text cannot hold control characters.' } });
    const listed = await searchCards(testDb(), { businessId: a.id, mode: 'test', query: 'kebede\u0000', limit: 10 });
    expect(listed.items.length).toBeGreaterThan(0);
    expect(parsePayoutFilters({ q: 'ORD\u00001005' }).q).toBe('ORD 1005');
    expect(parsePayoutFilters({ q: '\u0000' }).q).toBeUndefined();
  });
});
