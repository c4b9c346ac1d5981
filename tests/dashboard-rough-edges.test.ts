import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import * as developer from '../lib/actions/developer-actions';
import { runActionAs } from '../lib/actions/define-action';
import { cancelCard } from '../lib/cards/cancel-card';
import { payoutInitiator } from '../lib/dashboard/payout-initiator';
import { searchCards } from '../lib/dashboard/search-cards';
import { searchPayouts } from '../lib/dashboard/search-payouts';
import { searchEverything } from '../lib/search/search-everything';
import { type LiveUpdate, subscribeLiveUpdates } from '../lib/webhooks/live-updates';
import { adminClient, createTestBusiness, randomPhone, testDb, type TestBusiness } from './helpers';
import { userOf } from './owners-auth-helpers';

process.env.DATABASE_URL = inject('databaseUrl');

/** Issue 28, items 11 to 17: what daily dashboard users hit, read from PostgreSQL as the pages read it. */
describe('dashboard rough edges', () => {
  const tag = randomBytes(3).toString('hex');
  let a: TestBusiness;
  let b: TestBusiness;
  let source: string; // A's funded card
  let target: string; // A's second card, paid card-to-card
  let gone: string; // A's cancelled card
  let bankRef: string;
  let c2cRef: string;
  let topupRef: string;
  let linkRef: string;
  let foreignRef: string; // a bank payout of B to the same account name

  const card = async (biz: TestBusiness, first: string, last: string) => {
    const res = await biz.test.post('/api/v1/card', { phone_number: randomPhone(), currency: 'ETB', first_name: first, last_name: last });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.card_number as string;
  };
  const fund = async (biz: TestBusiness, number: string, amount: number) => {
    await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount });
    const t = await biz.test.post('/api/v1/transfers', { amount, bank_slug: 'link', account_number: number, account_name: 'Float' });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    await biz.test.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
    return t.body.data.provider_reference as string;
  };

  beforeAll(async () => {
    a = await createTestBusiness(`Rough edges ${tag}`);
    b = await createTestBusiness(`Rough edges other ${tag}`);
    source = await card(a, 'Selam', 'Tesfaye');
    target = await card(a, 'Dawit', 'Alemu');
    gone = await card(a, 'Hana', `Gone${tag}`);
    topupRef = await fund(a, source, 100_000);
    const bank = await a.test.post('/api/v1/card/payouts', {
      card_number: source,
      amount: 1_500,
      bank_slug: 'cbe',
      account_number: `10000${tag.replace(/\D/g, '7').padEnd(6, '7')}42`,
      account_name: `Almaz Bekele ${tag}`,
    });
    expect(bank.status, JSON.stringify(bank.body)).toBe(200);
    bankRef = bank.body.data.provider_reference;
    const c2c = await a.test.post('/api/v1/card/payouts', { card_number: source, amount: 2_000, destination_card_number: target });
    expect(c2c.status, JSON.stringify(c2c.body)).toBe(200);
    c2cRef = c2c.body.data.initiator_reference;
    const payment = await a.test.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: target, merchant_reference: `ORD-${tag}` });
    expect(payment.status, JSON.stringify(payment.body)).toBeLessThan(300);
    linkRef = payment.body.data.link_reference;
    await cancelCard(testDb(), { businessId: a.id, mode: 'test', cardNumber: gone, actor: { type: 'user', id: null } });

    const bSource = await card(b, 'Other', 'Holder');
    await fund(b, bSource, 10_000);
    const foreign = await b.test.post('/api/v1/card/payouts', {
      card_number: bSource,
      amount: 1_000,
      bank_slug: 'cbe',
      account_number: '2000000000042',
      account_name: `Almaz Bekele ${tag}`,
    });
    expect(foreign.status).toBe(200);
    foreignRef = foreign.body.data.provider_reference;
  });

  const payoutsFound = async (q: string, biz = a) =>
    (await searchPayouts(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'Africa/Addis_Ababa', filters: { q }, limit: 25 })).rows.map(
      (p) => p.reference,
    );

  it('11: the payouts list finds a card’s payouts by its number, any part of a reference or account name, an account number', async () => {
    // A card number as printed lists every payout from it, to it, or topping it up; newest first.
    expect(await payoutsFound(source.replace(/(\d{4})(?=\d)/g, '$1 '))).toEqual([c2cRef, bankRef, topupRef]);
    expect(await payoutsFound(target.replace(/(\d{4})(?=\d)/g, '$1-'))).toEqual([c2cRef]);
    // Any part of a reference, in any case.
    expect(await payoutsFound(bankRef.slice(4, 14))).toEqual([bankRef]);
    expect(await payoutsFound(bankRef.slice(4, 14).toUpperCase())).toEqual([bankRef]);
    expect(await payoutsFound(bankRef)).toEqual([bankRef]);
    // A bank account number, whole or in part, and the account name, any part, any case.
    const bankRow = (await searchPayouts(testDb(), { businessId: a.id, mode: 'test', timeZone: 'UTC', filters: { q: bankRef }, limit: 1 })).rows[0];
    expect(await payoutsFound(bankRow.accountNumber!)).toEqual([bankRef]);
    expect(await payoutsFound(bankRow.accountNumber!.replace(/(\d{4})(?=\d)/g, '$1 '))).toEqual([bankRef]);
    expect(await payoutsFound(`almaz bekele ${tag}`)).toEqual([bankRef]);
    expect(await payoutsFound(`BEKELE ${tag}`)).toEqual([bankRef]);
    // Never another business's payout, and nothing for text that matches nothing.
    expect(await payoutsFound(foreignRef)).toEqual([]);
    expect(await payoutsFound('zzz-no-such-payout')).toEqual([]);
    expect(await payoutsFound(`almaz bekele ${tag}`, b)).toEqual([foreignRef]);
  });

  it('12: support finds the card behind a payout or payment reference, and nothing of the money', async () => {
    const support = (q: string, biz = a) => searchEverything(testDb(), { businessId: biz.id, mode: 'test', role: 'support', country: 'ET', query: q });
    const byPayout = await support(bankRef);
    expect(byPayout.payouts).toBeUndefined();
    expect(byPayout.payments).toBeUndefined();
    expect(byPayout.references).toEqual([
      { kind: 'payout', reference: bankRef, card: expect.objectContaining({ cardNumber: source, holder: 'Selam Tesfaye' }) },
    ]);
    expect(JSON.stringify(byPayout)).not.toMatch(/Almaz|"amount"|"fee"|"status":"(pending|success|failed)"/);
    // A ledger top-up leads to the card it topped up; a payment to the card it credits.
    expect((await support(topupRef)).references).toEqual([expect.objectContaining({ kind: 'payout', card: expect.objectContaining({ cardNumber: source }) })]);
    expect((await support(linkRef)).references).toEqual([{ kind: 'payment', reference: linkRef, card: expect.objectContaining({ cardNumber: target }) }]);
    // Exact references only, of this business and mode.
    expect((await support(bankRef.slice(0, -2))).references).toEqual([]);
    expect((await support(foreignRef)).references).toEqual([]);
    expect((await support(bankRef, b)).references).toEqual([]);
    // Roles that open payouts get the payout itself, as before.
    const finance = await searchEverything(testDb(), { businessId: a.id, mode: 'test', role: 'finance', country: 'ET', query: bankRef });
    expect(finance.references).toBeUndefined();
    expect(finance.payouts?.map((p) => p.reference)).toEqual([bankRef]);
  });

  it('13: "All" lists cancelled cards too, marked cancelled, and pages through live and cancelled cards in one order', async () => {
    const all = await searchCards(testDb(), { businessId: a.id, mode: 'test', limit: 25 });
    expect(all.items.map((c) => c.card_number)).toEqual([gone, target, source]);
    expect(all.items[0].cancelled_at).not.toBeNull();
    expect((await searchCards(testDb(), { businessId: a.id, mode: 'test', query: `gone${tag}`, limit: 25 })).items.map((c) => c.card_number)).toEqual([gone]);
    expect((await searchCards(testDb(), { businessId: a.id, mode: 'test', query: gone.slice(-4), limit: 25 })).items.map((c) => c.card_number)).toContain(gone);
    expect((await searchCards(testDb(), { businessId: a.id, mode: 'test', status: 'active', limit: 25 })).items.map((c) => c.card_number)).toEqual([
      target,
      source,
    ]);
    expect((await searchCards(testDb(), { businessId: a.id, mode: 'test', status: 'cancelled', limit: 25 })).items.map((c) => c.card_number)).toEqual([gone]);
    // One card a page, both ways, across the two kinds.
    const one = { businessId: a.id, mode: 'test' as const, limit: 1 };
    const p1 = await searchCards(testDb(), one);
    const p2 = await searchCards(testDb(), { ...one, after: p1.nextAfter! });
    const p3 = await searchCards(testDb(), { ...one, after: p2.nextAfter! });
    expect([p1, p2, p3].map((p) => p.items[0].card_number)).toEqual([gone, target, source]);
    expect(p3.nextAfter).toBeNull();
    const back = await searchCards(testDb(), { ...one, before: p2.prevBefore! });
    expect(back.items.map((c) => c.card_number)).toEqual([gone]);
    expect(back.prevBefore).toBeNull();
  });

  it('15: creating, disabling or cancelling a card through the API tells open views of that business and mode', async () => {
    const heard: LiveUpdate[] = [];
    const stop = await subscribeLiveUpdates(a.id, 'test', (u) => heard.push(u), inject('databaseUrl'));
    const heardByB: LiveUpdate[] = [];
    const stopB = await subscribeLiveUpdates(b.id, 'test', (u) => heardByB.push(u), inject('databaseUrl'));
    try {
      const number = await card(a, 'Live', 'Update');
      await expect.poll(() => heard.find((u) => u.event === 'card.created')).toEqual({ event: 'card.created', kind: 'other', cards: [number] });
      // Disabling and cancelling it are heard too (a burst within 100 ms is one notice), so an open list shows its status.
      const heardAfter = async (change: () => Promise<{ status: number }>) => {
        const before = heard.length;
        expect((await change()).status).toBe(200);
        await expect.poll(() => heard.slice(before).find((u) => u.event.startsWith('card.'))).toMatchObject({ kind: 'other', cards: [number] });
      };
      await heardAfter(() => a.test.patch(`/api/v1/card/${number}`, { status: 'disable' }));
      await heardAfter(() => a.test.delete(`/api/v1/card/${number}`));
      expect(heardByB.filter((u) => u.event.startsWith('card.'))).toEqual([]);
    } finally {
      await stop();
      await stopB();
    }
  });

  it('16: a payout started in the dashboard names the teammate; an id of another business names nobody', async () => {
    const operator = await userOf(a.id, 'operator');
    // Who started it is data the payout page words in the reader's language (PayoutInitiator).
    expect(await payoutInitiator(testDb(), { businessId: a.id, actorType: 'user', actorId: String(operator.userId) })).toEqual({
      kind: 'user',
      email: operator.email,
    });
    expect(await payoutInitiator(testDb(), { businessId: b.id, actorType: 'user', actorId: String(operator.userId) })).toEqual({ kind: 'removed_user' });
    const [key] = (await testDb().execute<{ id: number; prefix: string }>(sql`SELECT id, prefix FROM api_keys WHERE business_id = ${a.id} AND mode = 'test'`))
      .rows;
    expect(await payoutInitiator(testDb(), { businessId: a.id, actorType: 'api_key', actorId: String(key.id) })).toMatchObject({
      kind: 'api_key',
      shown: expect.stringContaining(key.prefix),
    });
    expect(await payoutInitiator(testDb(), { businessId: b.id, actorType: 'api_key', actorId: String(key.id) })).toEqual({ kind: 'unknown_key' });
  });

  it('17: the replay period is read on the business’s clock, not the viewer’s or UTC', async () => {
    const owner = await userOf(a.id, 'owner');
    // One event of A, delivered, then marked failed for good and placed at 08:30 UTC, which is 11:30 in Addis Ababa (UTC+3).
    const settledEvent = async () => {
      const { rows } = await testDb().execute<{ id: number; open: number }>(sql`
        SELECT e.id, count(*) FILTER (WHERE d.state NOT IN ('delivered', 'failed'))::int AS open
        FROM webhook_events e JOIN webhook_deliveries d ON d.event_id = e.id
        WHERE e.business_id = ${a.id} AND e.mode = 'test' GROUP BY e.id ORDER BY e.id LIMIT 1`);
      return rows[0] && rows[0].open === 0 ? Number(rows[0].id) : undefined;
    };
    await expect.poll(settledEvent).toBeDefined();
    const eventId = (await settledEvent())!;
    await testDb().execute(sql`UPDATE webhook_events SET created_at = '2026-01-10T08:30:00Z' WHERE id = ${eventId}`);
    await testDb().execute(sql`UPDATE webhook_deliveries SET state = 'failed' WHERE event_id = ${eventId}`);
    const replay = (from: string, to: string) => runActionAs(developer.replayFailedWebhooks, owner, { from, to });
    // 08:00 to 09:00 on the business's clock is 05:00 to 06:00 UTC: not the event.
    expect(await replay('2026-01-10T08:00', '2026-01-10T09:00')).toMatchObject({ ok: true, data: { deliveries: 0, from: '2026-01-10T05:00:00.000Z' } });
    // 11:00 to 12:00 in Addis Ababa holds it.
    const hit = await replay('2026-01-10T11:00', '2026-01-10T12:00');
    expect(hit).toMatchObject({ ok: true, data: { from: '2026-01-10T08:00:00.000Z', to: '2026-01-10T09:00:00.000Z' } });
    if (hit.ok) expect(hit.data.deliveries).toBeGreaterThanOrEqual(1);
    // An exact instant with its offset is still taken as it is; a period that ends before it starts is refused on "to".
    expect(await replay('2026-01-10T08:00:00Z', '2026-01-10T09:00:00Z')).toMatchObject({ ok: true, data: { from: '2026-01-10T08:00:00.000Z' } });
    expect(await replay('2026-01-10T12:00', '2026-01-10T11:00')).toMatchObject({
      ok: false,
      code: 'validation_error',
      fieldErrors: { to: 'to must be after from.' },
    });
  });
});
