import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayIn } from '../../lib/time-zone';
import { verifyLedger } from '../../lib/ledger/verify-ledger';
import { reconciliationReport } from '../../lib/reports/reconciliation/report';
import { adminClient, createCard, createTestBusiness, testDb, type TestBusiness } from '../helpers';
import { fundCard } from '../ledger-helpers';

const TZ = 'Africa/Addis_Ababa';

/** A paid test-mode top-up of `amount` to a new card (hosted, or a wallet charge), and the card. */
async function paidTopUp(biz: TestBusiness, amount = 10_000, type: 'hosted' | 'direct-charge' = 'hosted') {
  const card = await createCard(biz.test);
  const body =
    type === 'hosted'
      ? { type, amount, card_number: card.card_number }
      : { type, amount, card_number: card.card_number, phone_number: '+251911234567', payment_method: 'telebirr' };
  const started = await biz.test.post('/api/v1/card/payments', body);
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const ref: string = started.body.data.link_reference;
  const done = await biz.test.post(`/api/v1/test-helpers/payments/${ref}/complete`, { status: 'success' });
  expect(done.status).toBe(200);
  return { ref, card: card.card_number as string };
}

const refund = (biz: TestBusiness, ref: string, body?: unknown, headers?: Record<string, string>) =>
  biz.test.post(`/api/v1/card/payments/${ref}/refund`, body, { headers });

async function balance(biz: TestBusiness, card: string): Promise<number> {
  return (await biz.test.get(`/api/v1/card/${card}`)).body.data.available_amount;
}

async function refundEvents(ref: string) {
  const res = await testDb().execute<{ type: string; body: string }>(
    sql`SELECT type, body FROM webhook_events WHERE subject_reference = ${ref} AND type LIKE 'payment.refund%' ORDER BY id`,
  );
  return res.rows.map((r) => ({ type: r.type, body: JSON.parse(r.body) as Record<string, unknown> }));
}

async function expectLedgerClean() {
  const report = await verifyLedger(testDb());
  expect(report.problems).toEqual([]);
}

describe('POST /card/payments/{reference}/refund', () => {
  let biz: TestBusiness;
  let other: TestBusiness;

  beforeAll(async () => {
    biz = await createTestBusiness('Refunds');
    other = await createTestBusiness('Refunds, another business');
  });

  it('refunds part of a paid top-up, then more, up to what was paid, and no further', async () => {
    const { ref, card } = await paidTopUp(biz, 10_000);
    const first = await refund(biz, ref, { amount: 2_500, reason: 'Order 1005 returned' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.message).toBe('Refund initiated successfully');
    expect(first.body.data).toMatchObject({
      link_reference: ref,
      status: 'succeeded',
      currency: 'ETB',
      amount: 2_500,
      reason: 'Order 1005 returned',
      refunded_amount: 2_500,
      refundable_amount: 7_500,
      mode: 'test',
    });
    expect(first.body.data.refund_reference).toMatch(/^rfd_/);
    expect(await balance(biz, card)).toBe(7_500);

    const second = await refund(biz, ref, { amount: 5_000 });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({ refunded_amount: 7_500, refundable_amount: 2_500 });

    const over = await refund(biz, ref, { amount: 2_501 });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ status: 'error', message: 'Validation error', error: { amount: expect.stringContaining('2500') } });

    // Without an amount, what is left.
    const rest = await refund(biz, ref, {});
    expect(rest.status).toBe(200);
    expect(rest.body.data).toMatchObject({ amount: 2_500, refunded_amount: 10_000, refundable_amount: 0 });
    expect(await balance(biz, card)).toBe(0);

    const again = await refund(biz, ref);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Payment not refundable');

    const status = await biz.test.get(`/api/v1/card/payment/${ref}/status`);
    expect(status.body.data).toMatchObject({ status: 'success', amount: 10_000, refunded_amount: 10_000 });

    const events = await refundEvents(ref);
    expect(events.map((e) => [e.type, e.body.amount, e.body.refunded_amount])).toEqual([
      ['payment.refunded', 2_500, 2_500],
      ['payment.refunded', 5_000, 7_500],
      ['payment.refunded', 2_500, 10_000],
    ]);
    expect(Object.keys(events[0].body)).toEqual([
      'event',
      'status',
      'mode',
      'payment_type',
      'currency',
      'amount',
      'refund_reference',
      'refunded_amount',
      'payment_amount',
      'reason',
      'service_reference',
      'processor_reference',
      'customer',
      'created_at',
      'updated_at',
    ]);
    expect(events[0].body).toMatchObject({
      event: 'payment.refunded',
      status: 'refunded',
      payment_type: 'link',
      payment_amount: 10_000,
      service_reference: ref,
    });
    await expectLedgerClean();
  });

  it('refunds a wallet charge through the wallet rail’s refund clearing account, and never the payer’s fee', async () => {
    await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [{ applies_to: 'payment', percent: '0', fixed: 150 }] });
    try {
      const { ref, card } = await paidTopUp(biz, 4_000, 'direct-charge');
      const status = await biz.test.get(`/api/v1/card/payment/${ref}/status`);
      expect(status.body.data).toMatchObject({ amount: 4_000, service_fee: 150 });
      expect((await refund(biz, ref, { amount: 4_150 })).status).toBe(400);
      const full = await refund(biz, ref);
      expect(full.body.data).toMatchObject({ amount: 4_000, refundable_amount: 0 });
      expect(await balance(biz, card)).toBe(0);
      const entries = await testDb().execute<{ name: string; amount: number }>(sql`
        SELECT a.name, e.amount FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
        WHERE t.reference = ${full.body.data.refund_reference} AND t.kind = 'payment_refund' ORDER BY e.amount`);
      expect(entries.rows.map((r) => [r.name, Number(r.amount)])).toEqual([
        [`card:${card}`, -4_000],
        ['clearing:refunds:wallet', 4_000],
      ]);
    } finally {
      await adminClient().put(`/api/admin/businesses/${biz.id}/fees`, { mode: 'test', rules: [] });
    }
  });

  it('refuses a card that no longer holds the amount, and changes nothing', async () => {
    const { ref, card } = await paidTopUp(biz, 10_000);
    const spender = await createCard(biz.test);
    const out = await biz.test.post('/api/v1/card/payouts', { card_number: card, destination_card_number: spender.card_number, amount: 9_000 });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const res = await refund(biz, ref, { amount: 5_000 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: 'error', message: 'Insufficient balance' });
    expect(await balance(biz, card)).toBe(1_000);
    expect((await biz.test.get(`/api/v1/card/payment/${ref}/status`)).body.data.refunded_amount).toBe(0);
    expect(await refundEvents(ref)).toEqual([]);
    // What the card still holds can go back.
    expect((await refund(biz, ref, { amount: 1_000 })).status).toBe(200);
    expect(await balance(biz, card)).toBe(0);
  });

  it('refunds from a disabled card, and from the business account once the card is cancelled', async () => {
    const { ref, card } = await paidTopUp(biz, 6_000);
    expect((await biz.test.patch(`/api/v1/card/${card}`, { status: 'disable' })).status).toBe(200);
    expect((await refund(biz, ref, { amount: 1_000 })).status).toBe(200);
    expect((await biz.test.get(`/api/v1/card/${card}`)).body.data.available_amount).toBe(5_000);
    expect((await biz.test.delete(`/api/v1/card/${card}`)).status).toBe(200);
    const before = await testDb().execute<{ balance: number }>(
      sql`SELECT balance FROM ledger_accounts WHERE name = ${`business:${biz.id}`} AND mode = 'test' AND currency = 'ETB'`,
    );
    const res = await refund(biz, ref, { amount: 2_000 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = await testDb().execute<{ balance: number }>(
      sql`SELECT balance FROM ledger_accounts WHERE name = ${`business:${biz.id}`} AND mode = 'test' AND currency = 'ETB'`,
    );
    expect(Number(after.rows[0].balance)).toBe(Number(before.rows[0].balance) - 2_000);
    await expectLedgerClean();
  });

  it('refuses payments that are not paid, and bad input, with the envelope and without a 500', async () => {
    const card = await createCard(biz.test);
    const pending = await biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 1_000, card_number: card.card_number });
    const pref = pending.body.data.link_reference;
    expect((await refund(biz, pref)).body.message).toBe('Payment not refundable');
    await biz.test.post(`/api/v1/test-helpers/payments/${pref}/complete`, { status: 'failed' });
    const failed = await refund(biz, pref);
    expect(failed.status).toBe(400);
    expect(failed.body.message).toBe('Payment not refundable');

    const { ref } = await paidTopUp(biz, 1_000);
    for (const bad of [{ amount: 0 }, { amount: -5 }, { amount: 10.5 }, { amount: '100' }, { reason: 7 }, { reason: 'x'.repeat(201) }]) {
      const res = await refund(biz, ref, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.message).toBe('Validation error');
    }
    const malformed = await biz.test.post(`/api/v1/card/payments/${ref}/refund`, undefined, {
      raw: '{"amount":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await refund(biz, 'pay_doesnotexist')).status).toBe(404);
    expect((await biz.test.get(`/api/v1/card/payments/${ref}/refund`)).status).toBe(405);
    expect((await biz.test.get(`/api/v1/card/payment/${ref}/status`)).body.data.refunded_amount).toBe(0);
  });

  it('answers 404 for another business’s payment and for the other mode’s key', async () => {
    const { ref, card } = await paidTopUp(biz, 3_000);
    const foreign = await other.test.post(`/api/v1/card/payments/${ref}/refund`, {});
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Payment not found');
    const live = await biz.live.post(`/api/v1/card/payments/${ref}/refund`, {});
    expect(live.status).toBe(404);
    expect(await balance(biz, card)).toBe(3_000);
  });

  it('answers a retry with the same Idempotency-Key once, and refunds once', async () => {
    const { ref, card } = await paidTopUp(biz, 5_000);
    const headers = { 'idempotency-key': `refund-${ref}` };
    const a = await refund(biz, ref, { amount: 1_000 }, headers);
    const b = await refund(biz, ref, { amount: 1_000 }, headers);
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect((await refund(biz, ref, { amount: 2_000 }, headers)).status).toBe(409);
    expect(await balance(biz, card)).toBe(4_000);
    expect(await refundEvents(ref)).toHaveLength(1);
  });

  it('50 concurrent refunds of one payment never refund more than was paid, nor take the card below zero', async () => {
    const { ref, card } = await paidTopUp(biz, 10_000);
    // More on the card than the payment: only the payment's amount limits the refunds.
    await fundCard(card, 5_000);
    const started = performance.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => refund(biz, ref, { amount: 300 })));
    console.log(`50 concurrent refunds of one payment over HTTP: ${Math.round(performance.now() - started)} ms`);
    const ok = answers.filter((a) => a.status === 200);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 400)).toEqual([]);
    expect(ok).toHaveLength(33);
    expect(await balance(biz, card)).toBe(15_000 - 33 * 300);
    const payment = (await biz.test.get(`/api/v1/card/payment/${ref}/status`)).body.data;
    expect(payment.refunded_amount).toBe(9_900);

    // And 50 full refunds of a card that holds less than the payment: one wins, the card ends at zero.
    const second = await paidTopUp(biz, 8_000);
    const spender = await createCard(biz.test);
    await biz.test.post('/api/v1/card/payouts', { card_number: second.card, destination_card_number: spender.card_number, amount: 3_000 });
    const all = await Promise.all(Array.from({ length: 50 }, () => refund(biz, second.ref, { amount: 5_000 })));
    expect(all.filter((a) => a.status === 200)).toHaveLength(1);
    expect(all.filter((a) => a.status === 400).every((a) => ['Insufficient balance', 'Validation error'].includes(a.body.message))).toBe(true);
    expect(await balance(biz, second.card)).toBe(0);
    await expectLedgerClean();
  });

  it('keeps the reconciliation green: refunds appear as payments refunded and match the refunds table', async () => {
    const day = dayIn(TZ, new Date());
    const report = await reconciliationReport(testDb(), { businessId: biz.id, mode: 'test', timeZone: TZ, from: day, to: day });
    const etb = report.days.find((d) => d.currency === 'ETB')!;
    expect(etb.problems).toEqual([]);
    expect(etb.reconciles).toBe(true);
    const refunded = await testDb().execute<{ total: number }>(
      sql`SELECT coalesce(sum(amount), 0)::bigint AS total FROM refunds WHERE business_id = ${biz.id} AND mode = 'test'`,
    );
    expect(etb.figures.paymentsRefunded).toBe(Number(refunded.rows[0].total));
    expect(etb.figures.paymentsRefunded).toBeGreaterThan(0);
  });
});
