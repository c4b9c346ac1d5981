import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { setExpiryPolicy } from '../../lib/business/expiry-policy';
import { cardExpiresAt } from '../../lib/cards/card-expiry';
import { expireDueCards } from '../../lib/cards/expire-cards';
import { failApprovalOfExpiredCard } from '../../lib/approvals/expire-approvals';
import { extendCardExpiry } from '../../lib/cards/extend-card-expiry';
import { listExpiringCards } from '../../lib/cards/list-expiring-cards';
import { dayIn } from '../../lib/time-zone';
import { cardStory } from '../../lib/dashboard/card-story';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { recognisedBreakage } from '../../lib/reports/breakage';
import { liabilityReport } from '../../lib/reports/liability/query';
import { reconciliationReport } from '../../lib/reports/reconciliation/report';
import { adminClient, createCard, createTestBusiness, testDb, waitFor, type TestBusiness } from '../helpers';
import { fundCard } from '../ledger-helpers';

const OWNER = { type: 'user' as const, id: 'tests-owner' };
const SUPPORT = { type: 'user' as const, id: 'tests-support' };
const ZONE = 'Africa/Addis_Ababa';

async function expiresAt(card: string): Promise<Date | null> {
  const res = await testDb().execute<{ expires_at: Date | null }>(sql`SELECT expires_at FROM cards WHERE card_number = ${card}`);
  return res.rows[0].expires_at ? new Date(res.rows[0].expires_at) : null;
}

/** Makes a card due now, as if its expiry date had passed. */
const makeDue = (card: string) => testDb().execute(sql`UPDATE cards SET expires_at = now() - interval '1 second' WHERE card_number = ${card}`);

async function breakage(businessId: number): Promise<number> {
  const res = await testDb().execute<{ balance: number }>(
    sql`SELECT balance FROM ledger_accounts WHERE kind = 'breakage' AND business_id = ${businessId} AND mode = 'test' AND currency = 'ETB'`,
  );
  return Number(res.rows[0]?.balance ?? 0);
}

async function expiredEvents(card: string) {
  const res = await testDb().execute<{ body: string }>(sql`SELECT body FROM webhook_events WHERE type = 'card.expired' AND subject_reference = ${card}`);
  return res.rows.map((r) => JSON.parse(r.body) as Record<string, unknown>);
}

/** Sweeps until the card is expired: the server's own sweep may be running beside this one. */
async function sweepUntilExpired(card: string) {
  return waitFor(async () => {
    await expireDueCards(testDb(), failApprovalOfExpiredCard);
    const res = await testDb().execute<{ expired_at: Date | null }>(sql`SELECT expired_at FROM cards WHERE card_number = ${card}`);
    return res.rows[0].expired_at ?? undefined;
  });
}

describe('card expiry', () => {
  let never: TestBusiness;
  let biz: TestBusiness;

  beforeAll(async () => {
    never = await createTestBusiness('Expiry: never');
    biz = await createTestBusiness('Expiry: twelve months');
    await setExpiryPolicy(testDb(), biz.id, OWNER, { policy: 'after_issue', months: 12 });
  });

  it('by default a card never expires: expires_at is null', async () => {
    const card = await createCard(never.test);
    expect(card.expires_at).toBeNull();
    expect((await never.test.get(`/api/v1/card/${card.card_number}`)).body.data.expires_at).toBeNull();
  });

  it('after issue: the card carries the end of the same local day twelve months on', async () => {
    const card = await createCard(biz.test);
    const expected = cardExpiresAt({ kind: 'after_issue', months: 12 }, new Date(card.created_at), ZONE)!;
    expect(card.expires_at).toBe(expected.toISOString());
    const issuedOn = dayIn(ZONE, new Date(card.created_at));
    const expiresOn = dayIn(ZONE, new Date(card.expires_at!));
    expect(expiresOn.slice(0, 4)).toBe(String(Number(issuedOn.slice(0, 4)) + 1));
    expect(expiresOn.slice(5)).toBe(issuedOn.slice(5));
    // 23:59:59.999 on the business's wall clock (UTC+3).
    expect(card.expires_at).toMatch(/T20:59:59\.999Z$/);
  });

  it('refuses a policy without months or out of range, and changes nothing', async () => {
    await expect(setExpiryPolicy(testDb(), biz.id, OWNER, { policy: 'after_issue' })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(setExpiryPolicy(testDb(), biz.id, OWNER, { policy: 'after_issue', months: 0 })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(setExpiryPolicy(testDb(), biz.id, OWNER, { policy: 'sometimes', months: 3 })).rejects.toMatchObject({ code: 'validation_error' });
    expect((await createCard(biz.test)).expires_at).not.toBeNull();
  });

  it('after the last load: a settled top-up moves the expiry; a card-to-card receipt does not', async () => {
    const loads = await createTestBusiness('Expiry: after last load');
    await setExpiryPolicy(testDb(), loads.id, OWNER, { policy: 'after_last_load', months: 1 });
    await adminClient().post(`/api/admin/businesses/${loads.id}/balance`, { mode: 'test', currency: 'ETB', amount: 100_000 });
    const card = (await createCard(loads.test)).card_number as string;
    // Due tomorrow (in the future, so the server's own sweep leaves it alone), nearer than a month from the load.
    const tomorrow = new Date(Math.floor(Date.now() / 1000) * 1000 + 86_400_000);
    await testDb().execute(sql`UPDATE cards SET expires_at = ${tomorrow.toISOString()}::timestamptz WHERE card_number = ${card}`);
    const t = await loads.test.post('/api/v1/transfers', { amount: 5_000, bank_slug: 'link', account_number: card, account_name: 'x' });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    expect(await expiresAt(card)).toEqual(tomorrow);
    await loads.test.post(`/api/v1/test-helpers/payouts/${t.body.data.provider_reference}/settle`, { status: 'success' });
    const renewed = await expiresAt(card);
    expect(renewed).toEqual(cardExpiresAt({ kind: 'after_last_load', months: 1 }, new Date(), ZONE));

    const sender = (await createCard(loads.test)).card_number as string;
    await fundCard(sender, 1_000);
    await testDb().execute(sql`UPDATE cards SET expires_at = '2027-01-01T00:00:00Z' WHERE card_number = ${card}`);
    const c2c = await loads.test.post('/api/v1/card/payouts', { card_number: sender, destination_card_number: card, amount: 500 });
    expect(c2c.status, JSON.stringify(c2c.body)).toBe(200);
    expect(await expiresAt(card)).toEqual(new Date('2027-01-01T00:00:00Z'));

    // A load never brings the date nearer: an extension (or a longer earlier term) stands.
    await testDb().execute(sql`UPDATE cards SET expires_at = '2035-01-01T00:00:00Z' WHERE card_number = ${card}`);
    const again = await loads.test.post('/api/v1/transfers', { amount: 1_000, bank_slug: 'link', account_number: card, account_name: 'x' });
    await loads.test.post(`/api/v1/test-helpers/payouts/${again.body.data.provider_reference}/settle`, { status: 'success' });
    expect(await expiresAt(card)).toEqual(new Date('2035-01-01T00:00:00Z'));
  });

  it('at expiry: the whole balance moves to breakage once, the card is read-only, one card.expired goes out', async () => {
    const card = (await createCard(biz.test)).card_number as string;
    const destination = (await createCard(biz.test)).card_number as string;
    await fundCard(card, 7_321);
    const before = await breakage(biz.id);
    await makeDue(card);
    await sweepUntilExpired(card);
    await expireDueCards(testDb(), failApprovalOfExpiredCard);

    expect(await breakage(biz.id)).toBe(before + 7_321);
    const view = (await biz.test.get(`/api/v1/card/${card}`)).body.data;
    expect(view).toMatchObject({ status: 3, available_amount: 0, held_amount: 0 });
    expect(new Date(view.expires_at).getTime()).toBeLessThanOrEqual(Date.now());
    const events = await expiredEvents(card);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event: 'card.expired',
      status: 'success',
      mode: 'test',
      currency: 'ETB',
      amount: 7_321,
      card_number: card,
      available_amount: 0,
    });
    const audit = await testDb().execute(sql`SELECT details FROM audit_log WHERE target = ${card} AND action = 'card.expired'`);
    expect(audit.rows).toHaveLength(1);

    // Read-only, like a cancelled card: no payout, redemption, top-up or payment, and it cannot be enabled again.
    const payout = await biz.test.post('/api/v1/card/payouts', { card_number: card, destination_card_number: destination, amount: 100 });
    expect([payout.status, payout.body.message]).toEqual([400, expect.stringMatching(/^Gift card disabled/)]);
    const redeem = await biz.test.post(`/api/v1/card/${card}/redemptions`, { amount: 100 });
    expect([redeem.status, redeem.body.message]).toEqual([400, expect.stringMatching(/^Gift card disabled/)]);
    const topUp = await biz.test.post('/api/v1/transfers', { amount: 100, bank_slug: 'link', account_number: card, account_name: 'x' });
    expect([topUp.status, topUp.body.message]).toEqual([400, expect.stringMatching(/^Gift card disabled/)]);
    const payment = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 100, card_number: card });
    expect([payment.status, payment.body.message]).toEqual([400, expect.stringMatching(/^Gift card disabled/)]);
    const enable = await biz.test.patch(`/api/v1/card/${card}`, { status: 'enable' });
    expect([enable.status, enable.body.message]).toEqual([403, expect.stringMatching(/^Cannot enable/)]);
    await expect(
      extendCardExpiry(testDb(), {
        businessId: biz.id,
        mode: 'test',
        cardNumber: card,
        actor: SUPPORT,
        input: { expires_on: '2035-01-01', reason: 'customer asked' },
      }),
    ).rejects.toMatchObject({ code: 'card_disabled' });

    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('a card with nothing on it expires without a ledger movement, still with its event', async () => {
    const card = (await createCard(biz.test)).card_number as string;
    await makeDue(card);
    await sweepUntilExpired(card);
    expect(await expiredEvents(card)).toEqual([expect.objectContaining({ amount: 0 })]);
    const moves = await testDb().execute(sql`SELECT 1 FROM ledger_transactions WHERE kind = 'card_expiry' AND reference = ${card}`);
    expect(moves.rows).toHaveLength(0);
  });

  it('the sweep leaves a card whose local day has not ended, even when the UTC day has', async () => {
    const card = (await createCard(biz.test)).card_number as string;
    await testDb().execute(sql`UPDATE cards SET expires_at = now() - interval '2 days' WHERE card_number = ${card}`);
    const today = dayIn(ZONE, new Date());
    const extended = await extendCardExpiry(testDb(), {
      businessId: biz.id,
      mode: 'test',
      cardNumber: card,
      actor: SUPPORT,
      input: { expires_on: today, reason: 'till was down on its last day' },
    });
    expect(dayIn(ZONE, extended.expiresAt)).toBe(today);
    expect(dayIn(ZONE, new Date(extended.expiresAt.getTime() + 1))).not.toBe(today);
    await expireDueCards(testDb(), failApprovalOfExpiredCard);
    const res = await testDb().execute<{ expired_at: Date | null }>(sql`SELECT expired_at FROM cards WHERE card_number = ${card}`);
    expect(res.rows[0].expired_at).toBeNull();
  });

  it('extension: a later day only, with a reason, audited; it shows in the expiring list', async () => {
    const card = (await createCard(biz.test)).card_number as string;
    await testDb().execute(sql`UPDATE cards SET expires_at = now() + interval '5 days' WHERE card_number = ${card}`);
    const listed = await listExpiringCards(testDb(), biz.id, 'test');
    expect(listed.map((c) => c.card_number)).toContain(card);
    expect((await listExpiringCards(testDb(), biz.id, 'live')).map((c) => c.card_number)).not.toContain(card);
    expect((await listExpiringCards(testDb(), never.id, 'test')).map((c) => c.card_number)).not.toContain(card);

    const extend = (input: unknown) => extendCardExpiry(testDb(), { businessId: biz.id, mode: 'test', cardNumber: card, actor: SUPPORT, input });
    await expect(extend({ expires_on: dayIn(ZONE, new Date()), reason: 'earlier' })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(extend({ expires_on: '2035-01-01' })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(extend({ expires_on: '2035-02-30', reason: 'not a day' })).rejects.toMatchObject({ code: 'validation_error' });
    await expect(extend({ expires_on: '9999-12-31', reason: 'forever' })).rejects.toMatchObject({
      code: 'validation_error',
      detail: { expires_on: expect.stringMatching(/ten years/) },
    });
    await expect(
      extendCardExpiry(testDb(), {
        businessId: never.id,
        mode: 'test',
        cardNumber: card,
        actor: SUPPORT,
        input: { expires_on: '2035-01-01', reason: 'x y z' },
      }),
    ).rejects.toMatchObject({ code: 'card_not_found' });

    const { expiresAt: at } = await extend({ expires_on: '2035-01-01', reason: 'customer was abroad' });
    expect(at.toISOString()).toBe('2035-01-01T20:59:59.999Z');
    expect((await biz.test.get(`/api/v1/card/${card}`)).body.data.expires_at).toBe('2035-01-01T20:59:59.999Z');
    const audit = await testDb().execute<{ details: Record<string, unknown> }>(
      sql`SELECT details FROM audit_log WHERE target = ${card} AND action = 'card.expiry_extended'`,
    );
    expect(audit.rows.map((r) => r.details)).toEqual([expect.objectContaining({ to: '2035-01-01T20:59:59.999Z', reason: 'customer was abroad' })]);
    expect((await listExpiringCards(testDb(), biz.id, 'test')).map((c) => c.card_number)).not.toContain(card);
  });

  it('breakage is recognised in the liability and reconciliation reports, and the card story tells expiry and extension', async () => {
    const reports = await createTestBusiness('Expiry: reports');
    await setExpiryPolicy(testDb(), reports.id, OWNER, { policy: 'after_issue', months: 6 });
    const card = (await createCard(reports.test)).card_number as string;
    const kept = (await createCard(reports.test)).card_number as string;
    await fundCard(card, 1_234);
    await fundCard(kept, 500);
    await extendCardExpiry(testDb(), {
      businessId: reports.id,
      mode: 'test',
      cardNumber: card,
      actor: SUPPORT,
      input: { expires_on: '2035-06-30', reason: 'kept for a regular' },
    });
    await makeDue(card);
    await sweepUntilExpired(card);

    const today = dayIn(ZONE, new Date());
    const opts = { businessId: reports.id, mode: 'test' as const, timeZone: ZONE, day: today, dormantDays: 365 };
    expect(await recognisedBreakage(testDb(), opts)).toEqual([{ currency: 'ETB', amount: 1_234, cards: 1 }]);
    // The expired card owes nothing: the liability is the other card's balance only.
    const liability = await liabilityReport(testDb(), opts);
    expect(liability.currencies.find((c) => c.currency === 'ETB')?.balance).toBe(500);

    const recon = await reconciliationReport(testDb(), { businessId: reports.id, mode: 'test', timeZone: ZONE, from: today, to: today, currency: 'ETB' });
    const day = recon.days[0];
    expect(day.figures).toMatchObject({ breakageRecognised: 1_234, cardsExpired: 1_234 });
    expect(day.problems).toEqual([]);
    expect(day.reconciles).toBe(true);

    const story = await cardStory(testDb(), { businessId: reports.id, mode: 'test', cardNumber: card, limit: 50, timeZone: ZONE });
    expect(story.state).toBe('expired');
    expect(story.events.map((e) => e.kind)).toEqual(expect.arrayContaining(['expired', 'extended']));
    expect(story.events.find((e) => e.kind === 'expired')?.detail).toBe('Its balance of ETB 12.34 became breakage. The card is read-only.');
    expect(story.events.find((e) => e.kind === 'extended')?.detail).toMatch(/ to 2035-06-30\. Reason: kept for a regular$/);
    expect(story.events.find((e) => e.kind === 'movement' && e.amount === -1_234)?.title).toBe('Card expired: balance to breakage');
  });
});
