import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newCardLink } from '../lib/cards/card-links';
import { adminClient, createCard, createTestBusiness, randomPhone, testDb, type TestBusiness } from './helpers';
import { fundCard } from './ledger-helpers';
import { startTestServer, type TestServer } from './test-server';

process.env.DATABASE_URL = inject('databaseUrl');

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** A token of the right shape that no link has: the page must look it up to know. */
const wrongToken = () => Array.from(randomBytes(43), (b) => BASE62[b % 62]).join('');

async function linkOf(cardNumber: string) {
  const { rows } = await testDb().execute<{ id: string; business_id: number; mode: 'test' | 'live' }>(
    sql`SELECT id, business_id, mode FROM cards WHERE card_number = ${cardNumber}`,
  );
  return newCardLink(testDb(), { businessId: rows[0].business_id, mode: rows[0].mode, cardId: Number(rows[0].id) });
}

async function open(path: string, baseUrl = inject('baseUrl') as string) {
  const res = await fetch(`${baseUrl}${path}`, { headers: { 'accept-language': 'en' } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, lang: /<html lang="([^"]+)"/.exec(text)?.[1] };
}

let biz: TestBusiness;
beforeAll(async () => {
  biz = await createTestBusiness('Tomoca Coffee');
});

describe('the card page', () => {
  it('shows its card to whoever holds the live link, kept by no cache, named to no other site, and nothing of other cards', async () => {
    const holderPhone = randomPhone();
    const card = await createCard(biz.test, 'ETB', holderPhone);
    await fundCard(card.card_number, 50_000);
    expect((await biz.test.post(`/api/v1/card/${card.card_number}/redemptions`, { amount: 12_345 })).status).toBe(200);
    const other = await createCard(biz.test);
    await fundCard(other.card_number, 777_700);
    const link = await linkOf(card.card_number);

    const page = await open(new URL(link.url).pathname);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toMatch(/no-store/);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    // Nothing may load from another origin.
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'/);
    expect(page.text).toContain('Tomoca Coffee');
    expect(page.text).toContain(card.card_number.replace(/(\d{4})(?=\d)/g, '$1 '));
    expect(page.text).toContain('data:image/svg+xml');
    expect(page.text).toMatch(/ETB(\s|&nbsp;|\u00a0)376\.55/);
    expect(page.text).toContain('Spent at Tomoca Coffee');
    expect(page.text).toContain('Test mode: this card holds test money only');
    for (const secret of [other.card_number, `${other.card_number.slice(-4)}</`, holderPhone, biz.merchant_id, biz.keys.test, '7,777.00']) {
      expect(page.text, secret).not.toContain(secret);
    }
    // No address of another origin in what the browser is told to load.
    const loads = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(loads.filter((u) => /^(https?:)?\/\//.test(u))).toEqual([]);
  });

  it('offers Add money within the business’s max_card_balance, and none on a full card', async () => {
    const limited = await createTestBusiness('Limited Coffee');
    const set = await adminClient().put(`/api/admin/businesses/${limited.id}/limits`, { mode: 'test', currency: 'ETB', max_card_balance: 50_000 });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const card = await createCard(limited.test);
    await fundCard(card.card_number, 20_000);
    const page = await open(new URL((await linkOf(card.card_number)).url).pathname);
    expect(page.text).toMatch(/From ETB(\s|&nbsp;|\u00a0)1\.00 to ETB(\s|&nbsp;|\u00a0)300\.00/);
    const full = await createCard(limited.test);
    await fundCard(full.card_number, 50_000);
    const fullPage = await open(new URL((await linkOf(full.card_number)).url).pathname);
    expect(fullPage.text).toContain('data-testid="add-money-closed">This card is full');
    expect(fullPage.text).not.toContain('name="amount"');
  });

  it('speaks the business’s customer language with its Ethiopian calendar, and ?lang overrides it', async () => {
    const amharic = await createTestBusiness('ቡና ቤት');
    expect((await adminClient().put(`/api/admin/businesses/${amharic.id}/locale`, { customer_language: 'am', calendar: 'ethiopic' })).status).toBe(200);
    const card = await createCard(amharic.test);
    const path = new URL((await linkOf(card.card_number)).url).pathname;
    const am = await open(path);
    expect(am.lang).toBe('am');
    expect(am.text).toContain('ቀሪ ሂሳብ');
    expect(am.text).toContain(`href="${path}?lang=en"`);
    const en = await open(`${path}?lang=en`);
    expect(en.lang).toBe('en');
    expect(en.text).toContain('Balance');

    // Another page never takes a public page from the browser's own headers: the language would tell a guessed link exists.
    const token = path.split('/')[2];
    for (const page of ['/login', '/api/no-such-page']) {
      for (const header of ['x-public-page', 'x-card-token']) {
        const forged = await fetch(`${inject('baseUrl')}${page}`, {
          headers: { 'accept-language': 'en', [header]: header === 'x-public-page' ? `c/${token}` : token },
        });
        const text = await forged.text();
        expect(text, page).toContain('<html');
        expect(/<html lang="([^"]+)"/.exec(text)?.[1], `${page} ${header}`).toBe('en');
      }
    }
  });

  it('answers 404 for a wrong token, an old link after a new one, a corrected phone number and a cancelled card', async () => {
    expect((await open(`/c/${wrongToken()}`)).status).toBe(404);
    expect((await open('/c/short')).status).toBe(404);

    const card = await createCard(biz.test);
    const first = await linkOf(card.card_number);
    const second = await linkOf(card.card_number);
    expect((await open(new URL(first.url).pathname)).status).toBe(404);
    expect((await open(new URL(second.url).pathname)).status).toBe(200);

    const corrected = await biz.test.patch(`/api/v1/card/${card.card_number}`, { phone_number: randomPhone() });
    expect(corrected.status, JSON.stringify(corrected.body)).toBe(200);
    expect((await open(new URL(second.url).pathname)).status).toBe(404);

    const third = await linkOf(card.card_number);
    expect((await open(new URL(third.url).pathname)).status).toBe(200);
    expect((await biz.test.delete(`/api/v1/card/${card.card_number}`)).status).toBe(200);
    const gone = await open(new URL(third.url).pathname);
    expect(gone.status).toBe(404);
    expect(gone.headers.get('cache-control')).toMatch(/no-store/);
  });

  it('answers its Add money action called with a plain object instead of its form without a 500, and starts no payment', async () => {
    const card = await createCard(biz.test);
    const path = new URL((await linkOf(card.card_number)).url).pathname;
    const actionId = /\$ACTION_ID_([0-9a-f]+)/.exec((await open(path)).text)?.[1];
    expect(actionId, 'the card page carries its action').toBeTruthy();
    const res = await fetch(`${inject('baseUrl')}${path}`, {
      method: 'POST',
      headers: { 'next-action': actionId!, 'content-type': 'text/plain;charset=UTF-8', accept: 'text/x-component' },
      body: JSON.stringify([{ token: path.slice(3), amount: '100' }]),
    });
    expect(res.status).toBeLessThan(500);
    const { rows } = await testDb().execute(sql`SELECT 1 FROM payments WHERE card_number = ${card.card_number}`);
    expect(rows).toHaveLength(0);
  });
});

describe('PATCH /card/{card_number} with phone_number', () => {
  it('moves the card to the corrected number, keeps its balance, and audits both numbers masked', async () => {
    const from = randomPhone();
    const to = randomPhone();
    const card = await createCard(biz.test, 'ETB', from);
    await fundCard(card.card_number, 4_200);
    const res = await biz.test.typed.setCardStatus(card.card_number, { phone_number: to });
    expect(res.httpStatus).toBe(200);
    expect(res.status === 'success' && res.message).toBe('Gift card phone number corrected successfully');
    expect(res.status === 'success' && res.data).toMatchObject({ card_number: card.card_number, available_amount: 4_200, name: 'Test Holder' });
    const listed = await biz.test.get(`/api/v1/card?phone_number=${to.slice(4)}`);
    expect(listed.body.data.items.map((c: { card_number: string }) => c.card_number)).toEqual([card.card_number]);
    expect((await biz.test.get(`/api/v1/card?phone_number=${from.slice(4)}`)).body.data.items).toEqual([]);

    const { rows } = await testDb().execute<{ details: { from: string; to: string } }>(
      sql`SELECT details FROM audit_log WHERE business_id = ${biz.id} AND action = 'card.phone_corrected' AND target = ${card.card_number}`,
    );
    expect(rows).toHaveLength(1);
    const said = JSON.stringify(rows[0].details);
    expect(said).not.toContain(from.slice(4));
    expect(said).not.toContain(to.slice(4));
    expect(rows[0].details.from).toBe(`${from.slice(0, 5)}${'•'.repeat(from.length - 7)}${from.slice(-2)}`);
    expect(rows[0].details.to.slice(-2)).toBe(to.slice(-2));
  });

  it('refuses both fields at once, and keeps SPEC.md’s answer to an empty body', async () => {
    const card = await createCard(biz.test);
    const both = await biz.test.patch(`/api/v1/card/${card.card_number}`, { status: 'disable', phone_number: randomPhone() });
    expect(both.status).toBe(400);
    expect(both.body).toMatchObject({ status: 'error', message: 'Validation error', error: { status: expect.any(String), phone_number: expect.any(String) } });
    const empty = await biz.test.patch(`/api/v1/card/${card.card_number}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ message: 'Validation error', error: { status: 'status is required.' } });
    const bad = await biz.test.patch(`/api/v1/card/${card.card_number}`, { phone_number: '0911' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Invalid phone number');
    // Nothing changed: the card is still active and still the same holder's.
    expect((await biz.test.get(`/api/v1/card/${card.card_number}`)).body.data.status).toBe(1);
  });

  it('refuses a number that already has a card of the currency here (409), and allows one with another currency', async () => {
    const taken = randomPhone();
    await createCard(biz.test, 'ETB', taken);
    const card = await createCard(biz.test, 'ETB');
    const res = await biz.test.patch(`/api/v1/card/${card.card_number}`, { phone_number: taken });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ status: 'error', message: 'Gift card already exists' });
    const usd = await createCard(biz.test, 'USD');
    expect((await biz.test.patch(`/api/v1/card/${usd.card_number}`, { phone_number: taken })).status).toBe(200);
  });
});

describe('wrong card links from one address', () => {
  const TOKEN = 'card-page-metrics-token-0123456789';
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      databaseUrl: inject('databaseUrl'),
      adminToken: inject('adminToken'),
      env: { METRICS_TOKEN: TOKEN, CARD_LINK_MISSES_PER_MINUTE: '6' },
      loops: [],
    });
  });
  afterAll(() => server?.stop());

  /** Connections the page's pool has handed out: one per query outside a transaction. */
  async function queriesSoFar(): Promise<number> {
    const text = await (await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const line = text.split('\n').find((l) => l.startsWith('giftcard_db_pool_acquired_total{pool="requests"}'));
    return line ? Number(line.split(' ').pop()) : 0;
  }

  it('a link that opens a card costs its reader nothing: twice the limit of live opens leave every wrong one allowed', async () => {
    const card = await createCard(biz.test);
    const live = new URL((await linkOf(card.card_number)).url).pathname;
    for (let i = 0; i < 12; i++) expect((await open(live, server.baseUrl)).status).toBe(200);
  });

  it('are refused with 429 and a Retry-After of at most a minute past the limit, without a query each', async () => {
    // Spend the address's allowance: each of these is looked up and answered 404.
    const start = await queriesSoFar();
    let misses = 0;
    for (;;) {
      const res = await open(`/c/${wrongToken()}`, server.baseUrl);
      if (res.status === 429) break;
      expect(res.status).toBe(404);
      misses++;
      expect(misses).toBeLessThan(20);
    }
    expect(misses).toBeGreaterThanOrEqual(6);
    const before = await queriesSoFar();
    // The counter sees lookups: each wrong link answered 404 took at least one.
    expect(before - start).toBeGreaterThanOrEqual(misses);

    const statuses: number[] = [];
    const retryAfter: number[] = [];
    const burstStarted = Date.now();
    for (let sent = 0; sent < 1000; sent += 50) {
      const batch = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const res = await fetch(`${server.baseUrl}/c/${wrongToken()}`);
          await res.arrayBuffer();
          return res;
        }),
      );
      for (const res of batch) {
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter.push(Number(res.headers.get('retry-after')));
          expect(res.headers.get('cache-control')).toBe('no-store');
        }
      }
    }
    const after = await queriesSoFar();
    const looked = statuses.filter((s) => s === 404).length;
    // One token refills every 10 s (6 a minute), and each request takes its token before its lookup: however many
    // arrive together, only the refills since the burst began reach a lookup (looking first let 39 of 50 through one).
    expect(looked).toBeLessThanOrEqual(1 + Math.floor((Date.now() - burstStarted) / 10_000));
    expect(statuses.filter((s) => s === 429).length).toBe(1000 - looked);
    expect(Math.min(...retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Math.max(...retryAfter)).toBeLessThanOrEqual(60);
    // The refusals cost the database nothing: only the few that were looked up took a connection.
    expect(after - before).toBeLessThanOrEqual(looked * 2);
    console.log(`1,000 wrong card links after the limit: ${1000 - looked} refused with 429, ${looked} looked up; ${after - before} queries`);

    // The limit is the address's: even a live link waits until Retry-After.
    const card = await createCard(biz.test);
    const link = await linkOf(card.card_number);
    expect((await open(new URL(link.url).pathname, server.baseUrl)).status).toBe(429);
  });
});
