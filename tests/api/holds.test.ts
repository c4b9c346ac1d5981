import { sql } from 'drizzle-orm';
import pg from 'pg';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { dayIn } from '../../lib/time-zone';
import type { ServiceError } from '../../lib/errors';
import { createDb } from '../../lib/db/client';
import { captureHold } from '../../lib/holds/capture-hold';
import { expireHolds } from '../../lib/holds/expire-holds';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { reconciliationReport } from '../../lib/reports/reconciliation/report';
import { adminClient, createCard, createTestBusiness, type TestBusiness, testDb, waitFor } from '../helpers';
import { businessBalance, fundCard } from '../ledger-helpers';

const hold = (biz: TestBusiness, card: string, body?: unknown, headers?: Record<string, string>) =>
  biz.test.post(`/api/v1/card/${card}/holds`, body, { headers });
const capture = (biz: TestBusiness, reference: string, body?: unknown) => biz.test.post(`/api/v1/card/holds/${reference}/capture`, body);
const voidHold = (biz: TestBusiness, reference: string) => biz.test.post(`/api/v1/card/holds/${reference}/void`);

async function card(biz: TestBusiness, reference: string) {
  return (await biz.test.get(`/api/v1/card/${reference}`)).body.data as { available_amount: number; held_amount: number };
}

async function fundedCard(biz: TestBusiness, amount: number): Promise<string> {
  const number = (await createCard(biz.test)).card_number as string;
  await fundCard(number, amount);
  return number;
}

async function holdEvents(reference: string) {
  const res = await testDb().execute<{ type: string; body: string }>(
    sql`SELECT type, body FROM webhook_events WHERE subject_reference = ${reference} ORDER BY id`,
  );
  return res.rows.map((r) => ({ type: r.type, body: JSON.parse(r.body) as Record<string, unknown> }));
}

/** The ledger transactions that released or captured a hold: each hold ends in exactly one. */
async function endings(reference: string) {
  const res = await testDb().execute<{ kind: string }>(sql`SELECT kind FROM ledger_transactions WHERE reference = ${reference} AND kind <> 'hold' ORDER BY id`);
  return res.rows.map((r) => r.kind);
}

describe('till holds', () => {
  let biz: TestBusiness;
  let other: TestBusiness;

  beforeAll(async () => {
    biz = await createTestBusiness('Holds');
    other = await createTestBusiness('Holds, another business');
  });

  it('places a hold: 201, the money leaves available_amount for held_amount at once, hold.created goes out', async () => {
    const number = await fundedCard(biz, 10_000);
    const res = await hold(biz, number, { amount: 2_500, merchant_reference: 'pump 4' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: 'success', message: 'Hold placed successfully' });
    const placed = res.body.data;
    expect(placed).toMatchObject({ status: 'held', amount: 2_500, captured_amount: 0, card_number: number, currency: 'ETB', merchant_reference: 'pump 4' });
    expect(placed.hold_reference).toMatch(/^hld_/);
    // Seven days by default.
    const days = (Date.parse(placed.expires_at) - Date.parse(placed.created_at)) / 86_400_000;
    expect(days).toBe(7);
    expect(await card(biz, number)).toMatchObject({ available_amount: 7_500, held_amount: 2_500 });

    const got = await biz.test.get(`/api/v1/card/holds/${placed.hold_reference}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(placed);
    const list = await biz.test.get(`/api/v1/card/${number}/holds`);
    expect(list.body.data).toMatchObject({ items: [placed], total: 1, page: 1, pages: 1 });

    const events = await holdEvents(placed.hold_reference);
    expect(events.map((e) => e.type)).toEqual(['hold.created']);
    expect(events[0].body).toMatchObject({
      event: 'hold.created',
      status: 'held',
      mode: 'test',
      amount: 2_500,
      hold_reference: placed.hold_reference,
      card_number: number,
      available_amount: 7_500,
    });
  });

  it('captures the whole hold as a redemption: the business gets it less the redemption fee, the card keeps what was available', async () => {
    await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [{ applies_to: 'redemption', percent: '2', fixed: 10 }] });
    try {
      const number = await fundedCard(biz, 10_000);
      const placed = (await hold(biz, number, { amount: 5_000 })).body.data;
      const before = await businessBalance(biz.id, 'test', 'ETB');
      const res = await capture(biz, placed.hold_reference);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ status: 'captured', amount: 5_000, captured_amount: 5_000, fee: 110 });
      expect(res.body.data.ended_at).toBeDefined();
      expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(before + 4_890);
      expect(await card(biz, number)).toMatchObject({ available_amount: 5_000, held_amount: 0 });

      // The same capture again is the same success; a void after it is refused; nothing moves twice.
      const again = await capture(biz, placed.hold_reference, { amount: 5_000 });
      expect(again.status).toBe(200);
      expect(again.body.data).toEqual(res.body.data);
      const late = await voidHold(biz, placed.hold_reference);
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ status: 'error', message: 'Hold already captured' });
      const otherAmount = await capture(biz, placed.hold_reference, { amount: 4_000 });
      expect(otherAmount.status).toBe(409);
      expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(before + 4_890);
      expect((await holdEvents(placed.hold_reference)).map((e) => e.type)).toEqual(['hold.created', 'hold.captured']);
      expect(await endings(placed.hold_reference)).toEqual(['hold_release', 'card_redemption']);
    } finally {
      await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [] });
    }
  });

  it('captures part of a hold and releases the rest to the card', async () => {
    const number = await fundedCard(biz, 10_000);
    const placed = (await hold(biz, number, { amount: 6_000 })).body.data;
    const before = await businessBalance(biz.id, 'test', 'ETB');
    const over = await capture(biz, placed.hold_reference, { amount: 6_001 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ message: 'Validation error', error: { amount: expect.any(String) } });
    const res = await capture(biz, placed.hold_reference, { amount: 3_750 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'captured', amount: 6_000, captured_amount: 3_750 });
    expect(await card(biz, number)).toMatchObject({ available_amount: 6_250, held_amount: 0 });
    expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(before + 3_750);
    const [, captured] = await holdEvents(placed.hold_reference);
    expect(captured.body).toMatchObject({ event: 'hold.captured', status: 'captured', amount: 6_000, captured_amount: 3_750, available_amount: 6_250 });
  });

  it('voids a hold: the money is back on the card; a void repeated is the same success; a capture after it is refused', async () => {
    const number = await fundedCard(biz, 4_000);
    const placed = (await hold(biz, number, { amount: 4_000 })).body.data;
    expect(await card(biz, number)).toMatchObject({ available_amount: 0, held_amount: 4_000 });
    const res = await voidHold(biz, placed.hold_reference);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'voided', captured_amount: 0 });
    expect(await card(biz, number)).toMatchObject({ available_amount: 4_000, held_amount: 0 });
    const again = await voidHold(biz, placed.hold_reference);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(res.body.data);
    const late = await capture(biz, placed.hold_reference);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ status: 'error', message: 'Hold already voided' });
    expect(await card(biz, number)).toMatchObject({ available_amount: 4_000, held_amount: 0 });
    expect((await holdEvents(placed.hold_reference)).map((e) => e.type)).toEqual(['hold.created', 'hold.voided']);
  });

  it('refuses a capture after expires_at even before the sweep, and the service releases the hold within the sweep interval', async () => {
    const number = await fundedCard(biz, 3_000);
    const placed = (await hold(biz, number, { amount: 1_000, expires_in_seconds: 1 })).body.data;
    await waitFor(async () => (Date.now() > Date.parse(placed.expires_at) ? true : undefined));
    const late = await capture(biz, placed.hold_reference);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ status: 'error', message: 'Hold expired' });
    // The server's own sweep (every 15 s) releases it: no test calls the sweep here.
    const expired = await waitFor(async () => {
      const got = await biz.test.get(`/api/v1/card/holds/${placed.hold_reference}`);
      return got.body.data.status === 'expired' ? got.body.data : undefined;
    }, 40_000);
    expect(Date.parse(expired.ended_at) - Date.parse(placed.expires_at)).toBeLessThan(60_000);
    expect(await card(biz, number)).toMatchObject({ available_amount: 3_000, held_amount: 0 });
    expect((await holdEvents(placed.hold_reference)).map((e) => e.type)).toEqual(['hold.created', 'hold.expired']);
    expect((await capture(biz, placed.hold_reference)).body.message).toBe('Hold expired');
    expect((await voidHold(biz, placed.hold_reference)).status).toBe(409);
  }, 60_000);

  it('a capture repeated at the expiry instant, while the first is still committing, answers the captured hold, not 409 Hold expired (the core, real PostgreSQL)', async () => {
    const number = await fundedCard(biz, 3_000);
    const placed = (await hold(biz, number, { amount: 1_000, expires_in_seconds: 3 })).body.data;
    // The first capture claims the hold, then waits on the business's held account, locked here, past expires_at.
    const blocker = new pg.Client({ connectionString: inject('databaseUrl') });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query(`SELECT id FROM ledger_accounts WHERE name = $1 AND mode = 'test' FOR UPDATE`, [`held:${biz.id}`]);
      // Locked by a capture's claim: a NOWAIT lock in a savepoint fails (and, rolled back, holds nothing either way).
      const claimed = async () => {
        await blocker.query('SAVEPOINT probe');
        try {
          await blocker.query(`SELECT id FROM holds WHERE reference = $1 FOR UPDATE NOWAIT`, [placed.hold_reference]);
          return undefined;
        } catch {
          return true;
        } finally {
          await blocker.query('ROLLBACK TO SAVEPOINT probe');
        }
      };
      // Activity is read once per transaction unless its snapshot is cleared.
      const waiters = async () => {
        await blocker.query('SELECT pg_stat_clear_snapshot()');
        return (await blocker.query(`SELECT pid FROM pg_stat_activity WHERE cardinality(pg_blocking_pids(pid)) > 0`)).rows.map((r) => r.pid as number);
      };
      // Each till its own pool, as two tills on two servers.
      const coreCapture = () =>
        captureHold(createDb(inject('databaseUrl'), 2).db, {
          businessId: biz.id,
          mode: 'test',
          actor: { type: 'api_key', id: 'till' },
          reference: placed.hold_reference,
          amount: 600,
        }).then(
          (hold) => ({ hold }),
          (err: ServiceError) => ({ refused: err.code }),
        );
      const first = coreCapture();
      await waitFor(claimed);
      await waitFor(async () => (Date.now() > Date.parse(placed.expires_at) + 50 ? true : undefined));
      const before = await waiters();
      const again = coreCapture();
      // It waits for the first to commit (or, refused at once, answers before).
      await Promise.race([again, waitFor(async () => ((await waiters()).some((pid) => !before.includes(pid)) ? true : undefined))]);
      await blocker.query('ROLLBACK');
      const [a, b] = await Promise.all([first, again]);
      expect(a).toMatchObject({ hold: { status: 'captured', captured_amount: 600 } });
      expect(b).toEqual(a);
    } finally {
      await blocker.end();
    }
    expect(await endings(placed.hold_reference)).toHaveLength(2);
    expect(await card(biz, number)).toMatchObject({ held_amount: 0 });
    // Another amount is another capture: it lost, and says to what.
    expect((await capture(biz, placed.hold_reference, { amount: 500 })).body).toMatchObject({ status: 'error', message: 'Hold already captured' });
  });

  it('nothing spends held money: concurrent holds, redemptions and card-to-card payouts on one card never pass its balance', async () => {
    const number = await fundedCard(biz, 10_000);
    const destination = (await createCard(biz.test)).card_number as string;
    const calls = [
      ...Array.from({ length: 12 }, () => hold(biz, number, { amount: 700 })),
      ...Array.from({ length: 12 }, () => biz.test.post(`/api/v1/card/${number}/redemptions`, { amount: 700 })),
      ...Array.from({ length: 12 }, () => biz.test.post('/api/v1/card/payouts', { card_number: number, destination_card_number: destination, amount: 700 })),
    ];
    let started = performance.now();
    const answers = await Promise.all(calls);
    console.log(`36 concurrent holds, redemptions and payouts on one card over HTTP: ${Math.round(performance.now() - started)} ms`);
    const ok = answers.filter((a) => a.status === 200 || a.status === 201);
    expect(answers.filter((a) => !ok.includes(a)).every((a) => a.status === 400 && a.body.message === 'Insufficient balance')).toBe(true);
    expect(ok).toHaveLength(14);
    const holds = answers.slice(0, 12).filter((a) => a.status === 201).length;
    expect(await card(biz, number)).toMatchObject({ available_amount: 10_000 - 14 * 700, held_amount: holds * 700 });
    // Every hold then captured concurrently with voids of the same holds: each ends once.
    const references = answers.slice(0, 12).flatMap((a) => (a.status === 201 ? [a.body.data.hold_reference as string] : []));
    started = performance.now();
    const racing = await Promise.all(references.flatMap((r) => [capture(biz, r), voidHold(biz, r)]));
    console.log(`${references.length} captures racing ${references.length} voids over HTTP: ${Math.round(performance.now() - started)} ms`);
    for (let i = 0; i < references.length; i++) {
      const [c, v] = [racing[2 * i], racing[2 * i + 1]];
      expect([c.status, v.status].sort()).toEqual([200, 409]);
      expect(await endings(references[i])).toHaveLength(c.status === 200 ? 2 : 1);
    }
    expect((await card(biz, number)).held_amount).toBe(0);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('a void racing the expiry sweep on expired holds: each hold ends once, with one event', async () => {
    const number = await fundedCard(biz, 5_000);
    const placed = await Promise.all(Array.from({ length: 5 }, () => hold(biz, number, { amount: 1_000, expires_in_seconds: 1 })));
    const references = placed.map((p) => p.body.data.hold_reference as string);
    const last = Math.max(...placed.map((p) => Date.parse(p.body.data.expires_at)));
    await waitFor(async () => (Date.now() > last ? true : undefined));
    const [voids] = await Promise.all([Promise.all(references.map((r) => voidHold(biz, r))), expireHolds(testDb()), expireHolds(testDb())]);
    for (const [i, r] of references.entries()) {
      const types = (await holdEvents(r)).map((e) => e.type);
      expect(types).toHaveLength(2);
      expect(types[1]).toBe(voids[i].status === 200 ? 'hold.voided' : 'hold.expired');
      expect(await endings(r)).toEqual(['hold_release']);
    }
    expect(await card(biz, number)).toMatchObject({ available_amount: 5_000, held_amount: 0 });
  });

  it('a disabled card takes no new hold, but holds placed before can still be captured or voided', async () => {
    const number = await fundedCard(biz, 5_000);
    const first = (await hold(biz, number, { amount: 1_000 })).body.data;
    const second = (await hold(biz, number, { amount: 2_000 })).body.data;
    expect((await biz.test.patch(`/api/v1/card/${number}`, { status: 'disable' })).status).toBe(200);
    const refused = await hold(biz, number, { amount: 100 });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: 'error', message: 'Gift card disabled' });
    expect((await capture(biz, first.hold_reference)).status).toBe(200);
    expect((await voidHold(biz, second.hold_reference)).status).toBe(200);
    expect((await biz.test.patch(`/api/v1/card/${number}`, { status: 'enable' })).status).toBe(200);
    expect(await card(biz, number)).toMatchObject({ available_amount: 4_000, held_amount: 0 });
  });

  it('a cancelled card: its holds cannot be captured, a void sends the held money to the business account', async () => {
    const number = await fundedCard(biz, 5_000);
    const placed = (await hold(biz, number, { amount: 2_000 })).body.data;
    const before = await businessBalance(biz.id, 'test', 'ETB');
    expect((await biz.test.delete(`/api/v1/card/${number}`)).status).toBe(200);
    // Cancelling swept the available 3 000; the held 2 000 waits for the hold to end.
    expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(before + 3_000);
    expect((await hold(biz, number, { amount: 100 })).status).toBe(404);
    const refused = await capture(biz, placed.hold_reference);
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ status: 'error', message: 'Gift card not found' });
    expect((await biz.test.get(`/api/v1/card/holds/${placed.hold_reference}`)).body.data.status).toBe('held');
    const voided = await voidHold(biz, placed.hold_reference);
    expect(voided.status).toBe(200);
    expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(before + 5_000);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it("answers another business's hold and the other mode's as not found, and moves nothing", async () => {
    const number = await fundedCard(biz, 2_000);
    const placed = (await hold(biz, number, { amount: 1_000 })).body.data;
    for (const client of [other.test, biz.live]) {
      for (const res of [
        await client.get(`/api/v1/card/holds/${placed.hold_reference}`),
        await client.post(`/api/v1/card/holds/${placed.hold_reference}/capture`),
        await client.post(`/api/v1/card/holds/${placed.hold_reference}/void`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ status: 'error', message: 'Hold not found' });
      }
      expect((await client.post(`/api/v1/card/${number}/holds`, { amount: 100 })).status).toBe(404);
      expect((await client.get(`/api/v1/card/${number}/holds`)).status).toBe(404);
    }
    expect((await biz.test.get('/api/v1/card/holds/hld_nosuchhold')).status).toBe(404);
    expect(await card(biz, number)).toMatchObject({ available_amount: 1_000, held_amount: 1_000 });
  });

  it('honours Idempotency-Key on a hold: one hold for a retried request', async () => {
    const number = await fundedCard(biz, 2_000);
    const headers = { 'idempotency-key': `hold-${number}` };
    const a = await hold(biz, number, { amount: 500 }, headers);
    const b = await hold(biz, number, { amount: 500 }, headers);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(await card(biz, number)).toMatchObject({ available_amount: 1_500, held_amount: 500 });
  });

  it('answers bad input with 400 in the envelope, and holds nothing', async () => {
    const number = await fundedCard(biz, 5_000);
    const bad: [unknown, string][] = [
      [{}, 'amount'],
      [{ amount: '100' }, 'amount'],
      [{ amount: 10.5 }, 'amount'],
      [{ amount: 0 }, 'amount'],
      [{ amount: 100, expires_in_seconds: 0 }, 'expires_in_seconds'],
      [{ amount: 100, expires_in_seconds: 30 * 86_400 + 1 }, 'expires_in_seconds'],
      [{ amount: 100, expires_in_seconds: '60' }, 'expires_in_seconds'],
      [{ amount: 100, merchant_reference: 'x'.repeat(101) }, 'merchant_reference'],
    ];
    for (const [body, field] of bad) {
      const res = await hold(biz, number, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Validation error', error: { [field]: expect.any(String) } });
    }
    expect((await hold(biz, number, { amount: 5_001 })).body.message).toBe('Insufficient balance');
    const placed = (await hold(biz, number, { amount: 100, expires_in_seconds: 30 * 86_400 })).body.data;
    expect((await capture(biz, placed.hold_reference, { amount: 0 })).status).toBe(400);
    expect((await capture(biz, placed.hold_reference, { amount: 'all' })).status).toBe(400);
    expect(await card(biz, number)).toMatchObject({ available_amount: 4_900, held_amount: 100 });
    expect((await biz.test.get(`/api/v1/card/${number}/holds?limit=101`)).status).toBe(400);
  });

  it('keeps the reconciliation green and the ledger balanced', async () => {
    const day = dayIn('UTC', new Date());
    const report = await reconciliationReport(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'UTC', from: day, to: day });
    const etb = report.days.find((d) => d.currency === 'ETB')!;
    expect(etb.problems).toEqual([]);
    expect(etb.reconciles).toBe(true);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });
});
