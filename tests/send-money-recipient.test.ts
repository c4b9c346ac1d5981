import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { DashboardSession } from '../lib/auth/session-types';
import { runActionAs } from '../lib/actions/define-action';
import { lookupRecipient } from '../lib/actions/payout-actions';
import { createTestBusiness, randomPhone, testDb, type TestBusiness } from './helpers';

process.env.DATABASE_URL = inject('databaseUrl');

const session = (biz: TestBusiness, role: DashboardSession['role'] = 'operator', mode: 'test' | 'live' = 'test'): DashboardSession => ({
  userId: 700_000 + biz.id,
  email: `${role}@example.com`,
  businessId: biz.id,
  role,
  mode,
  timeZone: 'Africa/Addis_Ababa',
  country: 'ET',
  actor: { type: 'user', id: String(700_000 + biz.id) },
});

async function card(biz: TestBusiness, body: Record<string, unknown>) {
  const res = await biz.test.post('/api/v1/card', { currency: 'ETB', ...body });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.card_number as string;
}

let a: TestBusiness;
let b: TestBusiness;
let phone: string;
let aCard: string;
let aOther: string;
let bCard: string;
let aUsd: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTestBusiness('Sender Shop'), createTestBusiness('Receiver Mart')]);
  phone = randomPhone();
  aCard = await card(a, { phone_number: randomPhone(), first_name: 'Abebe', last_name: 'Kebede' });
  aOther = await card(a, { phone_number: phone, first_name: 'Almaz', last_name: 'tesfaye' });
  aUsd = await card(a, { phone_number: randomPhone(), currency: 'USD', first_name: 'Usd', last_name: 'Holder' });
  // The same person at another business, under a name that business gave.
  bCard = await card(b, { phone_number: phone, first_name: 'Secret', last_name: 'Fullname', email: 'secret@example.com' });
});

const lookup = (biz: TestBusiness, destination: string, source?: string, s = session(biz)) =>
  runActionAs(lookupRecipient, s, { card_number: source, destination_card_number: destination });

describe('who a card-to-card payout reaches', () => {
  it('an own card: first name and last initial from this business’s names, last four, currency', async () => {
    const res = await lookup(a, aOther.replace(/(\d{4})(?=\d)/g, '$1 '), aCard);
    expect(res).toEqual({
      ok: true,
      data: {
        lastFour: aOther.slice(-4),
        currency: 'ETB',
        ownCard: true,
        holder: 'Almaz T.',
        businessName: null,
        canReceive: true,
        reason: null,
        refusal: null,
      },
    });
  });

  it('another business’s card: that business’s name only, never the name, phone or email it holds', async () => {
    const res = await lookup(a, bCard, aCard);
    expect(res).toEqual({
      ok: true,
      data: {
        lastFour: bCard.slice(-4),
        currency: 'ETB',
        ownCard: false,
        holder: null,
        businessName: 'Receiver Mart',
        canReceive: true,
        reason: null,
        refusal: null,
      },
    });
    const text = JSON.stringify(res);
    for (const secret of ['Secret', 'Fullname', 'secret@example.com', phone, phone.slice(-9), 'Almaz']) expect(text).not.toContain(secret);
  });

  it('says in plain words when a card cannot receive: disabled, other currency, the source itself', async () => {
    expect((await b.test.patch(`/api/v1/card/${bCard}`, { status: 'disable' })).status).toBe(200);
    expect(await lookup(a, bCard, aCard)).toMatchObject({ ok: true, data: { canReceive: false, reason: expect.stringMatching(/disabled/), holder: null } });
    expect((await b.test.patch(`/api/v1/card/${bCard}`, { status: 'enable' })).status).toBe(200);
    expect(await lookup(a, aUsd, aCard)).toMatchObject({
      ok: true,
      data: {
        canReceive: false,
        reason: expect.stringMatching(/holds USD; the source card holds ETB/),
        refusal: { code: 'currency_mismatch', sourceCurrency: 'ETB' },
      },
    });
    expect(await lookup(a, aCard, aCard)).toMatchObject({ ok: true, data: { canReceive: false, reason: expect.stringMatching(/source card itself/) } });
  });

  it('a cancelled card: an own one says so, another business’s is as unknown as a number never issued', async () => {
    const own = await card(a, { phone_number: randomPhone(), first_name: 'Gone' });
    const theirs = await card(b, { phone_number: randomPhone(), first_name: 'Gone' });
    expect((await a.test.delete(`/api/v1/card/${own}`)).status).toBeLessThan(300);
    expect((await b.test.delete(`/api/v1/card/${theirs}`)).status).toBeLessThan(300);
    expect(await lookup(a, own)).toMatchObject({ ok: true, data: { canReceive: false, reason: expect.stringMatching(/cancelled/) } });
    const unknown = await lookup(a, theirs);
    expect(unknown).toMatchObject({ ok: false, code: 'destination_card_not_found', field: 'destination_card_number' });
    expect(await lookup(a, '4000000000000002')).toEqual({ ...unknown, message: (unknown as { message: string }).message });
  });

  it('is scoped to the mode: a test card is unknown to a live session', async () => {
    expect(await lookup(a, aOther, undefined, session(a, 'operator', 'live'))).toMatchObject({ ok: false, code: 'destination_card_not_found' });
  });

  it('needs money:move, and a real card number', async () => {
    for (const role of ['finance', 'support'] as const) {
      expect(await lookup(a, aOther, undefined, session(a, role))).toMatchObject({ ok: false, code: 'forbidden' });
    }
    expect(await lookup(a, '1234')).toMatchObject({ ok: false, code: 'validation_error', fieldErrors: { destination_card_number: expect.any(String) } });
  });

  it('never reads another business’s names (the query joins names on the caller’s business only)', async () => {
    const names = await testDb().execute<{ n: number }>(
      sql`SELECT count(*)::int AS n FROM customer_names WHERE business_id = ${b.id} AND first_name = 'Secret'`,
    );
    expect(names.rows[0].n).toBe(1);
  });
});
