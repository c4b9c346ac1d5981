import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { dayIn } from '../../lib/time-zone';
import { statementPage } from '../../lib/reports/business-statement';
import { reconciliationReport } from '../../lib/reports/reconciliation/report';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from '../helpers';
import { businessBalance, fundCard } from '../ledger-helpers';

const redeem = (biz: TestBusiness, card: string, body?: unknown, headers?: Record<string, string>) =>
  biz.test.post(`/api/v1/card/${card}/redemptions`, body, { headers });

async function balance(biz: TestBusiness, card: string): Promise<number> {
  return (await biz.test.get(`/api/v1/card/${card}`)).body.data.available_amount;
}

async function fundedCard(biz: TestBusiness, amount: number): Promise<string> {
  const card = (await createCard(biz.test)).card_number as string;
  await fundCard(card, amount);
  return card;
}

async function redeemedEvents(reference: string) {
  const res = await testDb().execute<{ type: string; body: string }>(
    sql`SELECT type, body FROM webhook_events WHERE subject_reference = ${reference} ORDER BY id`,
  );
  return res.rows.map((r) => ({ type: r.type, body: JSON.parse(r.body) as Record<string, unknown> }));
}

describe('POST /card/{card_number}/redemptions', () => {
  let biz: TestBusiness;
  let other: TestBusiness;

  beforeAll(async () => {
    biz = await createTestBusiness('Redemptions');
    other = await createTestBusiness('Redemptions, another business');
  });

  it('moves the amount from the card to the business account at once, answers the balance after and emits card.redeemed', async () => {
    const card = await fundedCard(biz, 10_000);
    const before = await businessBalance(biz.id, 'test', 'ETB');
    const res = await redeem(biz, card, { amount: 2_550, merchant_reference: 'till-7 receipt 0042' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'success', message: 'Gift card redeemed successfully' });
    expect(res.body.data).toMatchObject({
      card_number: card,
      currency: 'ETB',
      amount: 2_550,
      fee: 0,
      net_amount: 2_550,
      merchant_reference: 'till-7 receipt 0042',
      available_amount: 7_450,
      held_amount: 0,
    });
    expect(res.body.data.reference).toMatch(/^rdm_/);
    expect(await balance(biz, card)).toBe(7_450);
    expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(before + 2_550);

    const events = await redeemedEvents(res.body.data.reference);
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('card.redeemed');
    expect(events[0].body).toMatchObject({
      event: 'card.redeemed',
      status: 'success',
      mode: 'test',
      amount: 2_550,
      reference: res.body.data.reference,
      merchant_reference: 'till-7 receipt 0042',
      card_number: card,
      available_amount: 7_450,
    });
    const audit = await testDb().execute(sql`SELECT action FROM audit_log WHERE target = ${card} AND action = 'card.redeemed'`);
    expect(audit.rows).toHaveLength(1);

    // The business statement shows the line as a redemption of that card.
    const today = new Date().toISOString().slice(0, 10);
    const statement = await statementPage(testDb(), {
      businessId: biz.id,
      mode: 'test',
      currency: 'ETB',
      timeZone: 'UTC',
      from: today,
      to: today,
      kind: 'redemption',
      limit: 50,
    });
    expect(statement.lines.map((l) => l.description)).toContain(`Redemption of card ${card}`);
  });

  it('charges the redemption fee of the schedule to the business, out of what it receives', async () => {
    await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [{ applies_to: 'redemption', percent: '2', fixed: 10 }] });
    try {
      const card = await fundedCard(biz, 10_000);
      const before = await businessBalance(biz.id, 'test', 'ETB');
      const res = await redeem(biz, card, { amount: 5_000 });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ amount: 5_000, fee: 110, net_amount: 4_890, available_amount: 5_000 });
      expect(await businessBalance(biz.id, 'test', 'ETB')).toBe(before + 4_890);
      // A fee larger than the amount is refused, and nothing moves.
      const tiny = await redeem(biz, card, { amount: 5 });
      expect(tiny.status).toBe(400);
      expect(tiny.body.message).toBe('Amount is too small to cover the service fee');
      expect(await balance(biz, card)).toBe(5_000);
    } finally {
      await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [] });
    }
  });

  it('50 concurrent redemptions of one card never overdraw it', async () => {
    const card = await fundedCard(biz, 10_000);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(biz, card, { amount: 300 })));
    console.log(`50 concurrent redemptions of one card over HTTP: ${Math.round(performance.now() - started)} ms`);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 400)).toEqual([]);
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(33);
    expect(answers.filter((a) => a.status === 400).every((a) => a.body.message === 'Insufficient balance')).toBe(true);
    expect(await balance(biz, card)).toBe(10_000 - 33 * 300);
    // Every answer's balance after is distinct: each saw the one before it.
    expect(new Set(ok.map((a) => a.body.data.available_amount)).size).toBe(33);
    expect((await verifyLedger(testDb())).problems).toEqual([]);
  });

  it('refuses more than the card holds, and a disabled or cancelled card, changing nothing', async () => {
    const card = await fundedCard(biz, 1_000);
    const over = await redeem(biz, card, { amount: 1_001 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ status: 'error', message: 'Insufficient balance' });

    expect((await biz.test.patch(`/api/v1/card/${card}`, { status: 'disable' })).status).toBe(200);
    const disabled = await redeem(biz, card, { amount: 100 });
    expect(disabled.status).toBe(400);
    expect(disabled.body).toMatchObject({ status: 'error', message: 'Gift card disabled' });
    expect((await biz.test.patch(`/api/v1/card/${card}`, { status: 'enable' })).status).toBe(200);
    expect(await balance(biz, card)).toBe(1_000);

    expect((await biz.test.delete(`/api/v1/card/${card}`)).status).toBe(200);
    const cancelled = await redeem(biz, card, { amount: 100 });
    expect(cancelled.status).toBe(404);
    expect(cancelled.body).toMatchObject({ status: 'error', message: 'Gift card not found' });
  });

  it("answers another business's card, and its other mode, as not found", async () => {
    const card = await fundedCard(biz, 1_000);
    const res = await other.test.post(`/api/v1/card/${card}/redemptions`, { amount: 100 });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: 'error', message: 'Gift card not found' });
    expect((await biz.live.post(`/api/v1/card/${card}/redemptions`, { amount: 100 })).status).toBe(404);
    expect(await balance(biz, card)).toBe(1_000);
  });

  it('answers a retry with the same Idempotency-Key once, and redeems once', async () => {
    const card = await fundedCard(biz, 5_000);
    const headers = { 'idempotency-key': `redeem-${card}` };
    const a = await redeem(biz, card, { amount: 1_000 }, headers);
    const b = await redeem(biz, card, { amount: 1_000 }, headers);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect((await redeem(biz, card, { amount: 2_000 }, headers)).status).toBe(409);
    expect(await balance(biz, card)).toBe(4_000);
    expect(await redeemedEvents(a.body.data.reference)).toHaveLength(1);
  });

  it('does not count toward the payout limits', async () => {
    const limited = await createTestBusiness('Redemptions under payout limits');
    const set = await adminClient().put(`/api/admin/businesses/${limited.id}/limits`, {
      mode: 'test',
      currency: 'ETB',
      max_payout: 1_000,
      daily_payout: 1_000,
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    const card = await fundedCard(limited, 10_000);
    expect((await redeem(limited, card, { amount: 4_000 })).status).toBe(200);
    expect((await redeem(limited, card, { amount: 4_000 })).status).toBe(200);
    expect(await balance(limited, card)).toBe(2_000);
  });

  it('keeps the reconciliation green: redemptions received, cards redeemed and their fees', async () => {
    const day = dayIn('UTC', new Date());
    const report = await reconciliationReport(testDb(), { businessId: biz.id, mode: 'test', timeZone: 'UTC', from: day, to: day });
    const etb = report.days.find((d) => d.currency === 'ETB')!;
    expect(etb.problems).toEqual([]);
    expect(etb.reconciles).toBe(true);
    const moved = await testDb().execute<{ out: number; fee: number }>(sql`
      SELECT coalesce(sum(-e.amount) FILTER (WHERE a.kind = 'card'), 0)::bigint AS out,
             coalesce(sum(e.amount) FILTER (WHERE a.kind = 'fee_revenue'), 0)::bigint AS fee
      FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE t.kind = 'card_redemption' AND t.business_id = ${biz.id} AND t.mode = 'test'`);
    expect(etb.figures.redemptionsOut).toBe(Number(moved.rows[0].out));
    expect(etb.figures.feesOnRedemptions).toBe(Number(moved.rows[0].fee));
    expect(etb.figures.feesOnRedemptions).toBeGreaterThan(0);
    expect(etb.figures.redemptionsIn).toBe(etb.figures.redemptionsOut - etb.figures.feesOnRedemptions);
    expect(etb.figures.otherOut).toBe(0);
  });

  it('answers bad input with 400 in the envelope, and moves nothing', async () => {
    const card = await fundedCard(biz, 5_000);
    const bad: [unknown, string][] = [
      [{}, 'amount'],
      [{ amount: '100' }, 'amount'],
      [{ amount: 10.5 }, 'amount'],
      [{ amount: 0 }, 'amount'],
      [{ amount: -100 }, 'amount'],
      [{ amount: 100, merchant_reference: 42 }, 'merchant_reference'],
      [{ amount: 100, merchant_reference: 'x'.repeat(101) }, 'merchant_reference'],
    ];
    for (const [body, field] of bad) {
      const res = await redeem(biz, card, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ status: 'error', message: 'Validation error', error: { [field]: expect.any(String) } });
    }
    const raw = await biz.test.post(`/api/v1/card/${card}/redemptions`, undefined, { raw: '{"amount": ' });
    expect(raw.status).toBe(400);
    expect(raw.body.status).toBe('error');
    expect(await balance(biz, card)).toBe(5_000);
  });
});
