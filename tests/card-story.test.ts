import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cancelCardAction, createCardAction, disableCardAction, enableCardAction, topUpCardAction } from '../lib/actions/card-actions';
import { runActionAs } from '../lib/actions/define-action';
import { startPayment } from '../lib/actions/payment-actions';
import type { DashboardSession } from '../lib/auth/session-types';
import type { Role } from '../lib/auth/users';
import { cardStory, type StoryEvent } from '../lib/dashboard/card-story';
import type { StoryPhrase } from '../lib/dashboard/card-story-words';
import { adminClient, createTestBusiness, testDb, type TestBusiness } from './helpers';

// runActionAs opens the app's own pool: point it at the tests' database.
process.env.DATABASE_URL = inject('databaseUrl');

async function sessionFor(biz: TestBusiness, role: Role): Promise<DashboardSession> {
  const email = `${role}-${randomUUID().slice(0, 8)}@example.com`;
  const res = await adminClient().post(`/api/admin/businesses/${biz.id}/users`, { email, password: 'dashboard-pass-123', role });
  expect(res.status).toBe(201);
  const userId = res.body.data.id as number;
  return { userId, email, businessId: biz.id, role, mode: 'test', timeZone: 'Africa/Addis_Ababa', country: 'ET', actor: { type: 'user', id: String(userId) } };
}

const ok = <T>(result: { ok: true; data: T } | { ok: false; message: string }): T => {
  if (!result.ok) throw new Error(result.message);
  return result.data;
};

/** One line per event, as the page reads it: title, who, detail. */
const line = (e: StoryEvent) => [e.title, e.actor ?? '-', e.detail ?? '-'].join(' | ');

const catalogue = (locale: string) => JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, `../messages/${locale}.json`), 'utf8')).CardStory;
const messageAt = (root: Record<string, unknown>, key: string) =>
  key.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], root);

/**
 * What a dashboard in Amharic tells of each event: every phrase names a sentence both catalogues hold, every term
 * one they hold too, and a title said without values is, in English, the very title lib/ wrote.
 */
function expectToldInEveryLanguage(events: StoryEvent[]) {
  const [en, am] = [catalogue('en'), catalogue('am')];
  const missing: string[] = [];
  for (const e of events) {
    for (const phrase of [e.said.title, ...e.said.detail] as StoryPhrase[]) {
      for (const c of [en, am]) if (typeof messageAt(c.said, phrase.key) !== 'string') missing.push(`said.${phrase.key}`);
      for (const v of Object.values(phrase.values ?? {})) {
        if (typeof v === 'object' && 'term' in v) for (const c of [en, am]) if (typeof messageAt(c.terms, v.term) !== 'string') missing.push(`terms.${v.term}`);
      }
    }
    if (!e.said.title.values) expect(messageAt(en.said, e.said.title.key), e.key).toBe(e.title);
  }
  expect(missing).toEqual([]);
}

describe("a card's whole story", () => {
  let biz: TestBusiness;
  let other: TestBusiness;
  let operator: DashboardSession;
  let support: DashboardSession;
  let cardNumber: string;
  let keyPrefix: string;

  beforeAll(async () => {
    biz = await createTestBusiness('Story teller');
    other = await createTestBusiness('Story stranger');
    operator = await sessionFor(biz, 'operator');
    support = await sessionFor(biz, 'support');
    keyPrefix = biz.keys.test.slice(0, 12);
    const funded = await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 50_000 });
    expect(funded.status).toBeLessThan(300);
  });

  it('the dashboard reads 0911 234 567 as an Ethiopian number; the API still refuses it', async () => {
    const created = ok(await runActionAs(createCardAction, operator, { phone_number: '0911 234 567', currency: 'ETB', first_name: 'Abebe', last_name: '' }));
    cardNumber = created.cardNumber;
    const card = await biz.test.get(`/api/v1/card/${cardNumber}`);
    expect(card.status).toBe(200);
    const { rows } = await testDb().execute<{ phone_number: string }>(sql`
      SELECT cu.phone_number FROM cards c JOIN customers cu ON cu.id = c.customer_id WHERE c.card_number = ${cardNumber}`);
    expect(rows[0].phone_number).toBe('+251911234567');

    const refused = await other.test.post('/api/v1/card', { phone_number: '0911234567', currency: 'ETB', first_name: 'Abebe' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/phone/i);

    const bad = await runActionAs(createCardAction, operator, { phone_number: '0911', currency: 'USD', first_name: 'Abebe', last_name: '' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.fieldErrors?.phone_number).toMatch(/not a valid phone number/);
  });

  it('a wallet charge from the dashboard takes a national number too', async () => {
    const result = await runActionAs(startPayment, operator, {
      submission_id: randomUUID(),
      type: 'direct-charge',
      card_number: cardNumber,
      amount: '5',
      phone_number: '251 911 234 567',
      payment_method: 'telebirr',
    });
    const link = ok(result).link_reference;
    const { rows } = await testDb().execute<{ phone_number: string }>(sql`SELECT phone_number FROM payments WHERE link_reference = ${link}`);
    expect(rows[0].phone_number).toBe('+251911234567');
    // Leave it cancelled: the story tells the reason recorded, or that the customer cancelled.
    expect((await biz.test.post(`/api/v1/test-helpers/payments/${link}/complete`, { status: 'cancelled' })).status).toBe(200);
  });

  it('tells every event in time order, with who did it and why', async () => {
    const db = testDb();
    // A paid payment link.
    const paid = ok(await runActionAs(topUpCardAction, operator, { card_number: cardNumber, source: 'link', amount: '100', submission_id: randomUUID() }));
    if (paid.source !== 'link') throw new Error('expected a link');
    expect((await biz.test.post(`/api/v1/test-helpers/payments/${paid.linkReference}/complete`, { status: 'success' })).status).toBe(200);
    // A failed one, with the processor's reason.
    const failed = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 2_000, card_number: cardNumber });
    expect(failed.status).toBeLessThan(300);
    const failedRef = failed.body.data.link_reference as string;
    expect((await biz.test.post(`/api/v1/test-helpers/payments/${failedRef}/complete`, { status: 'failed' })).status).toBe(200);
    await db.execute(
      sql`UPDATE payments SET failure_reason = COALESCE(failure_reason, 'The wallet had too little money.') WHERE link_reference = ${failedRef}`,
    );
    const { rows: reasonRows } = await db.execute<{ failure_reason: string }>(sql`SELECT failure_reason FROM payments WHERE link_reference = ${failedRef}`);
    const failureReason = reasonRows[0].failure_reason;
    const { rows: cancelRows } = await db.execute<{ failure_reason: string | null }>(sql`
      SELECT failure_reason FROM payments WHERE card_number = ${cardNumber} AND status = 'cancelled'`);
    const cancelReason = cancelRows[0].failure_reason ?? 'The customer cancelled before paying.';
    // One still waiting.
    const waiting = ok(await runActionAs(topUpCardAction, operator, { card_number: cardNumber, source: 'link', amount: '7', submission_id: randomUUID() }));
    if (waiting.source !== 'link') throw new Error('expected a link');

    // Support disables with a reason; the API key enables and disables; the provider disables.
    ok(await runActionAs(disableCardAction, support, { card_number: cardNumber, reason: '  Customer reported the card lost  ' }));
    // Paid while the card is disabled: the money goes to the business account, and the story says so.
    expect((await biz.test.post(`/api/v1/test-helpers/payments/${waiting.linkReference}/complete`, { status: 'success' })).status).toBe(200);
    const tooLong = await runActionAs(disableCardAction, support, { card_number: cardNumber, reason: 'x'.repeat(201) });
    expect(!tooLong.ok && tooLong.fieldErrors?.reason).toMatch(/200 characters/);
    expect((await biz.test.patch(`/api/v1/card/${cardNumber}`, { status: 'enable' })).status).toBe(200);
    expect((await biz.test.patch(`/api/v1/card/${cardNumber}`, { status: 'disable' })).status).toBe(200);
    expect((await biz.test.patch(`/api/v1/card/${cardNumber}`, { status: 'enable' })).status).toBe(200);
    expect((await adminClient().post(`/api/admin/cards/${cardNumber}/disable`, {})).status).toBe(200);

    // The provider's disable: the story says why, and the dashboard's Enable is refused.
    const disabled = await cardStory(db, { businessId: biz.id, mode: 'test', cardNumber, limit: 50 });
    expect(disabled.state).toBe('disabled');
    expect(disabled.disabled).toMatchObject({ by: 'provider', actor: 'the provider' });
    const refused = await runActionAs(enableCardAction, support, { card_number: cardNumber });
    expect(!refused.ok && refused.message).toMatch(/only the provider can enable it/);

    expect((await adminClient().post(`/api/admin/cards/${cardNumber}/enable`, {})).status).toBe(200);
    ok(await runActionAs(disableCardAction, support, { card_number: cardNumber }));
    const businessDisabled = await cardStory(db, { businessId: biz.id, mode: 'test', cardNumber, limit: 50 });
    expect(businessDisabled.disabled).toMatchObject({ by: 'business', actor: support.email, reason: null });
    ok(await runActionAs(enableCardAction, support, { card_number: cardNumber }));

    const moved = ok(await runActionAs(cancelCardAction, operator, { card_number: cardNumber }));
    expect(moved.movedToBusiness).toBe(10_000);

    // The API keeps hiding the cancelled card; the dashboard's story still opens.
    expect((await biz.test.get(`/api/v1/card/${cardNumber}`)).status).toBe(404);
    const story = await cardStory(db, { businessId: biz.id, mode: 'test', cardNumber, limit: 50 });
    expect(story.state).toBe('cancelled');
    expect(story.cancelled).toMatchObject({ actor: operator.email, movedToBusiness: 10_000 });

    const key = `API key ${keyPrefix}…`;
    expect(story.events.map(line)).toEqual([
      `Card cancelled | ${operator.email} | -`,
      `Card cancelled: balance to business account | ${operator.email} | -`,
      `Enabled | ${support.email} | -`,
      `Disabled | ${support.email} | -`,
      'Enabled by the provider | the provider | -',
      'Disabled by the provider | the provider | -',
      `Enabled | ${key} | -`,
      `Disabled | ${key} | -`,
      `Enabled | ${key} | -`,
      `Disabled | ${support.email} | Reason: Customer reported the card lost`,
      `Payment link created | ${operator.email} | Paid while the card could not take money (disabled or cancelled), so the money went to the business account.`,
      `Payment link failed | - | ${failureReason}`,
      `Payment link created | ${key} | -`,
      // The test helper completes payments as the API key.
      `Payment link paid | ${key} | -`,
      `Payment link created | ${operator.email} | -`,
      `Wallet charge cancelled | - | ${cancelReason}`,
      `Wallet charge started | ${operator.email} | -`,
      `Card created | ${operator.email} | For +251911234567, in ETB.`,
    ]);
    const byTitle = (t: string) => story.events.filter((e) => e.title === t);
    expect(byTitle('Payment link paid')[0]).toMatchObject({ amount: 10_000, balanceAfter: 10_000, reference: paid.linkReference, paymentState: 'paid' });
    expect(byTitle('Card cancelled: balance to business account')[0]).toMatchObject({ amount: -10_000, balanceAfter: 0 });
    expect(byTitle('Card cancelled')[0].movedToBusiness).toBe(10_000);
    expect(byTitle('Payment link created').map((e) => [e.reference, e.paymentState, e.requested])).toEqual([
      [waiting.linkReference, 'paid', 700],
      [failedRef, 'failed', 2_000],
      [paid.linkReference, 'paid', 10_000],
    ]);
    const times = story.events.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);
    expectToldInEveryLanguage(story.events);
  });

  it('pages through the story without losing or repeating an event', async () => {
    const db = testDb();
    const whole = await cardStory(db, { businessId: biz.id, mode: 'test', cardNumber, limit: 100 });
    expect(whole.older).toBeNull();
    const walked: string[] = [];
    let before: string | undefined;
    for (let page = 0; page < 20; page++) {
      const part = await cardStory(db, { businessId: biz.id, mode: 'test', cardNumber, limit: 4, before });
      expect(part.events.length).toBeLessThanOrEqual(4);
      walked.push(...part.events.map((e) => e.key));
      if (!part.older) break;
      before = part.older;
    }
    expect(walked).toEqual(whole.events.map((e) => e.key));
    expect(walked.length).toBe(18);
  });

  it('another business, or the other mode, finds no such card', async () => {
    const db = testDb();
    await expect(cardStory(db, { businessId: other.id, mode: 'test', cardNumber, limit: 10 })).rejects.toMatchObject({ code: 'card_not_found' });
    await expect(cardStory(db, { businessId: biz.id, mode: 'live', cardNumber, limit: 10 })).rejects.toMatchObject({ code: 'card_not_found' });
    const strangers = await runActionAs(enableCardAction, await sessionFor(other, 'owner'), { card_number: cardNumber });
    expect(!strangers.ok && strangers.message).toMatch(/^Gift card not found/);
  });

  it('money sent in from another business is "another business", never a person or key of this one', async () => {
    const mine = await biz.test.post('/api/v1/card', { phone_number: '+251911000321', currency: 'ETB', first_name: 'Lulit' });
    const theirs = await other.test.post('/api/v1/card', { phone_number: '+251911000322', currency: 'ETB', first_name: 'Dawit' });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect((await adminClient().post(`/api/admin/businesses/${other.id}/balance`, { mode: 'test', currency: 'ETB', amount: 5_000 })).status).toBe(200);
    const topup = await other.test.post('/api/v1/transfers', {
      amount: 5_000,
      bank_slug: 'link',
      account_number: theirs.body.data.card_number,
      account_name: 'Float',
    });
    expect(topup.status).toBe(200);
    const settled = await other.test.post(`/api/v1/test-helpers/payouts/${topup.body.data.provider_reference}/settle`, { status: 'success' });
    expect(settled.status).toBe(200);
    const sent = await other.test.post('/api/v1/card/payouts', {
      card_number: theirs.body.data.card_number,
      destination_card_number: mine.body.data.card_number,
      amount: 1_000,
    });
    expect(sent.status).toBe(200);
    const story = await cardStory(testDb(), { businessId: biz.id, mode: 'test', cardNumber: mine.body.data.card_number, limit: 10 });
    const incoming = story.events.find((e) => e.kind === 'movement');
    expect(incoming).toMatchObject({ amount: 1_000, actor: 'another business' });
  });

  it("a till's holds, each with its state now: held, captured (with what was captured), voided", async () => {
    const created = await biz.test.post('/api/v1/card', { phone_number: '+251911000323', currency: 'ETB', first_name: 'Hana' });
    const number = created.body.data.card_number as string;
    expect((await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 10_000 })).status).toBe(200);
    const topup = await biz.test.post('/api/v1/transfers', { amount: 10_000, bank_slug: 'link', account_number: number, account_name: 'Float' });
    expect((await biz.test.post(`/api/v1/test-helpers/payouts/${topup.body.data.provider_reference}/settle`, { status: 'success' })).status).toBe(200);
    const place = async (amount: number) => (await biz.test.post(`/api/v1/card/${number}/holds`, { amount })).body.data.hold_reference as string;
    const open = await place(1_000);
    const captured = await place(3_000);
    const voided = await place(2_000);
    expect((await biz.test.post(`/api/v1/card/holds/${captured}/capture`, { amount: 2_500 })).status).toBe(200);
    expect((await biz.test.post(`/api/v1/card/holds/${voided}/void`)).status).toBe(200);

    const story = await cardStory(testDb(), { businessId: biz.id, mode: 'test', cardNumber: number, limit: 50 });
    const placed = story.events.filter((e) => e.title === 'Held by a till');
    expect(Object.fromEntries(placed.map((e) => [e.reference, [e.holdState, e.amount]]))).toEqual({
      [open]: ['held', -1_000],
      [captured]: ['captured', -3_000],
      [voided]: ['voided', -2_000],
    });
    expect(placed.find((e) => e.reference === captured)?.detail).toBe('Captured ETB 25.00; the rest went back to the card.');
    const lines = story.events.filter((e) => e.reference === captured).map((e) => [e.title, e.amount]);
    expect(lines).toEqual([
      ['Hold captured: redeemed at the business', -2_500],
      ['Hold captured: held money back on the card', 3_000],
      ['Held by a till', -3_000],
    ]);
    expect(story.events.find((e) => e.reference === voided && e.amount === 2_000)?.title).toBe('Hold voided: money back on the card');
    expect(story.events[0].balanceAfter).toBe(10_000 - 1_000 - 2_500);
    expectToldInEveryLanguage(story.events);
  });
});
