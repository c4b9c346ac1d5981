import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cardOfLinkToken, newCardLink } from '../lib/cards/card-links';
import { createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';

process.env.DATABASE_URL = inject('databaseUrl');

let biz: TestBusiness;

const cardRow = async (cardNumber: string) => (await testDb().execute<{ id: string }>(sql`SELECT id FROM cards WHERE card_number = ${cardNumber}`)).rows[0].id;

beforeAll(async () => {
  biz = await createTestBusiness('Card links');
});

describe('card links', () => {
  it('open their card, keep only a hash, and end when a newer link is made', async () => {
    const card = await createCard(biz.test);
    const cardId = Number(await cardRow(card.card_number));
    const first = await newCardLink(testDb(), { businessId: biz.id, mode: 'test', cardId });
    expect(first.url).toMatch(/\/c\/[0-9A-Za-z]{43}$/);
    expect(await cardOfLinkToken(testDb(), first.token)).toEqual({ businessId: biz.id, mode: 'test', cardId, cardNumber: card.card_number });
    const stored = await testDb().execute<{ token_hash: string }>(sql`SELECT token_hash FROM card_links WHERE card_id = ${cardId}`);
    expect(stored.rows.map((r) => r.token_hash)).not.toContain(first.token);

    const second = await newCardLink(testDb(), { businessId: biz.id, mode: 'test', cardId });
    expect(await cardOfLinkToken(testDb(), first.token)).toBeNull();
    expect((await cardOfLinkToken(testDb(), second.token))?.cardId).toBe(cardId);
  });

  it('open nothing once the card is cancelled or past its expiry, nor for a token of another shape', async () => {
    const cancelled = await createCard(biz.test);
    const link = await newCardLink(testDb(), { businessId: biz.id, mode: 'test', cardId: Number(await cardRow(cancelled.card_number)) });
    expect((await biz.test.delete(`/api/v1/card/${cancelled.card_number}`)).status).toBe(200);
    expect(await cardOfLinkToken(testDb(), link.token)).toBeNull();

    const expiring = await createCard(biz.test);
    const expiringId = Number(await cardRow(expiring.card_number));
    const later = await newCardLink(testDb(), { businessId: biz.id, mode: 'test', cardId: expiringId });
    expect(await cardOfLinkToken(testDb(), later.token)).not.toBeNull();
    await testDb().execute(sql`UPDATE cards SET expires_at = now() - interval '1 second' WHERE id = ${expiringId}`);
    expect(await cardOfLinkToken(testDb(), later.token)).toBeNull();

    expect(await cardOfLinkToken(testDb(), `${later.token.slice(0, 42)}!`)).toBeNull();
    expect(await cardOfLinkToken(testDb(), 'x'.repeat(10_000))).toBeNull();
  });
});
