import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { DbOrTx } from '../lib/db/client';
import { adminClient, createCard, createTestBusiness, randomPhone, type ApiClient, type TestBusiness } from './helpers';

/**
 * A test-mode business with every kind of movement finance reports must
 * explain, made through the real API and back office: deposits; ledger
 * top-ups settled and reversed; hosted and wallet payments paid and failed;
 * card-to-card, bank (settled and failed, so reversed) and B2B payouts with
 * fees; B2B received from another business; a cancelled card whose balance
 * was swept to the business account; and a second currency.
 */
export interface FinanceBusiness {
  biz: TestBusiness;
  /** The business that sends and receives B2B payouts with biz. */
  other: TestBusiness;
  cards: { main: string; second: string; cancelled: string; usd: string };
  references: {
    topupSettled: string;
    topupReversed: string;
    paymentHosted: string;
    paymentWallet: string;
    paymentFailed: string;
    cardToCard: string;
    bankSettled: string;
    bankFailed: string;
    bankPending: string;
    b2bSent: string;
    b2bReceived: string;
  };
}

async function ok<T = any>(res: Promise<{ status: number; body: any }>, what: string): Promise<T> {
  const r = await res;
  expect(r.status, `${what}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
  return r.body.data as T;
}

async function settle(client: ApiClient, reference: string, status: 'success' | 'failed') {
  await ok(client.post(`/api/v1/test-helpers/payouts/${reference}/settle`, { status }), `settle ${reference}`);
}

async function complete(client: ApiClient, linkReference: string, status: 'success' | 'failed') {
  await ok(client.post(`/api/v1/test-helpers/payments/${linkReference}/complete`, { status }), `complete ${linkReference}`);
}

async function ledgerTopup(client: ApiClient, cardNumber: string, amount: number): Promise<string> {
  const t = await ok(client.post('/api/v1/transfers', { amount, bank_slug: 'link', account_number: cardNumber, account_name: 'Float' }), 'top-up');
  return t.provider_reference;
}

export async function seedFinanceBusiness(name = 'Finance'): Promise<FinanceBusiness> {
  const admin = adminClient();
  const [biz, other] = await Promise.all([createTestBusiness(`${name} books`), createTestBusiness(`${name} partner`)]);
  await ok(
    admin.put(`/api/admin/businesses/${biz.id}/fees`, {
      mode: 'test',
      rules: [
        { applies_to: 'card_to_card', percent: '1', fixed: 10 },
        { applies_to: 'bank', percent: '0', fixed: 50 },
        { applies_to: 'b2b', percent: '2', fixed: 0 },
        { applies_to: 'payment', percent: '1.5', fixed: 0 },
      ],
    }),
    'fees',
  );
  for (const [b, currency, amount] of [
    [biz, 'ETB', 1_000_000],
    [biz, 'USD', 50_000],
    [other, 'ETB', 100_000],
  ] as const) {
    await ok(admin.post(`/api/admin/businesses/${b.id}/balance`, { mode: 'test', currency, amount }), 'deposit');
  }

  const [main, second, cancelled, usd] = await Promise.all([
    createCard(biz.test),
    createCard(biz.test),
    createCard(biz.test),
    createCard(biz.test, 'USD', randomPhone()),
  ]);
  const otherCard = await createCard(other.test);

  // Ledger top-ups: one delivered, one that fails and goes home to the business account.
  const topupSettled = await ledgerTopup(biz.test, main.card_number, 300_000);
  await settle(biz.test, topupSettled, 'success');
  const topupReversed = await ledgerTopup(biz.test, second.card_number, 10_000);
  await settle(biz.test, topupReversed, 'failed');
  await settle(biz.test, await ledgerTopup(biz.test, cancelled.card_number, 4_000), 'success');
  await settle(biz.test, await ledgerTopup(biz.test, usd.card_number, 20_000), 'success');
  await settle(other.test, await ledgerTopup(other.test, otherCard.card_number, 50_000), 'success');

  // Payments: hosted paid, a wallet charge paid, and one that failed (nothing moves).
  const hosted = await ok(biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 20_000, card_number: main.card_number }), 'hosted');
  await complete(biz.test, hosted.link_reference, 'success');
  const wallet = await ok(
    biz.test.post('/api/v1/card/payments', {
      type: 'direct-charge',
      amount: 5_000,
      card_number: second.card_number,
      phone_number: '+251911000111',
      payment_method: 'telebirr',
    }),
    'wallet',
  );
  await complete(biz.test, wallet.link_reference, 'success');
  const failedPayment = await ok(biz.test.post('/api/v1/card/payments', { type: 'hosted', amount: 3_000, card_number: main.card_number }), 'failed payment');
  await complete(biz.test, failedPayment.link_reference, 'failed');

  const c2c = await ok(
    biz.test.post('/api/v1/card/payouts', { card_number: main.card_number, destination_card_number: second.card_number, amount: 15_000 }),
    'card-to-card',
  );
  const bankSettled = await ok(
    biz.test.post('/api/v1/card/payouts', {
      card_number: main.card_number,
      amount: 25_000,
      bank_slug: 'cbe',
      account_number: '1000123456123',
      account_name: 'Abebe',
    }),
    'bank',
  );
  await settle(biz.test, bankSettled.provider_reference, 'success');
  const bankFailed = await ok(
    biz.test.post('/api/v1/card/payouts', {
      card_number: main.card_number,
      amount: 7_000,
      bank_slug: 'telebirr',
      account_number: '0911000222',
      account_name: 'Almaz',
      charge_payer: 'customer',
    }),
    'wallet payout',
  );
  await settle(biz.test, bankFailed.provider_reference, 'failed');
  const bankPending = await ok(
    biz.test.post('/api/v1/card/payouts', {
      card_number: second.card_number,
      amount: 2_000,
      bank_slug: 'cbe',
      account_number: '1000999888123',
      account_name: 'Hana',
    }),
    'pending bank',
  );
  const b2bSent = await ok(
    biz.test.post('/api/v1/card/payouts', { card_number: main.card_number, merchant_id: other.merchant_id, amount: 12_000 }),
    'b2b sent',
  );
  const b2bReceived = await ok(
    other.test.post('/api/v1/card/payouts', { card_number: otherCard.card_number, merchant_id: biz.merchant_id, amount: 9_000 }),
    'b2b received',
  );

  // A cancelled card's balance is swept to the business account.
  await ok(biz.test.delete(`/api/v1/card/${cancelled.card_number}`), 'cancel');

  return {
    biz,
    other,
    cards: { main: main.card_number, second: second.card_number, cancelled: cancelled.card_number, usd: usd.card_number },
    references: {
      topupSettled,
      topupReversed,
      paymentHosted: hosted.link_reference,
      paymentWallet: wallet.link_reference,
      paymentFailed: failedPayment.link_reference,
      cardToCard: c2c.initiator_reference,
      bankSettled: bankSettled.provider_reference,
      bankFailed: bankFailed.provider_reference,
      bankPending: bankPending.provider_reference,
      b2bSent: b2bSent.provider_reference,
      b2bReceived: b2bReceived.provider_reference,
    },
  };
}

export interface CrossCardToCard {
  /** A card of the partner business, topped up with 30,000 ETB. */
  partnerCard: string;
  /** biz's main card → partnerCard, 100,000 ETB, the sender paying the fee. */
  sent: string;
  /** partnerCard → biz's second card, 8,000 ETB, the receiver paying the fee. */
  received: string;
}

/** Card-to-card across the two businesses of seedFinanceBusiness(), one payout each way. */
export async function addCrossBusinessCardToCard(f: FinanceBusiness): Promise<CrossCardToCard> {
  const partnerCard = await createCard(f.other.test);
  await settle(f.other.test, await ledgerTopup(f.other.test, partnerCard.card_number, 30_000), 'success');
  const sent = await ok(
    f.biz.test.post('/api/v1/card/payouts', { card_number: f.cards.main, destination_card_number: partnerCard.card_number, amount: 100_000 }),
    'card-to-card to the partner',
  );
  const received = await ok(
    f.other.test.post('/api/v1/card/payouts', {
      card_number: partnerCard.card_number,
      destination_card_number: f.cards.second,
      amount: 8_000,
      charge_payer: 'receiver',
    }),
    'card-to-card from the partner',
  );
  return { partnerCard: partnerCard.card_number, sent: sent.initiator_reference, received: received.initiator_reference };
}

/**
 * Card-to-card across businesses from the ledger alone, per currency, for one business: what its cards received in
 * card-to-card transactions that took nothing from its cards (in), and what its cards paid in ones that credited none
 * of its cards (out), with the fee revenue of those, for transactions created in [from, to).
 */
export async function crossCardToCardFromLedger(db: DbOrTx, businessId: number, from: Date, to: Date) {
  const r = await db.execute<{ currency: string; side: string; count: number; amount: number; fee: number }>(sql`
    WITH own AS (SELECT account_id FROM cards WHERE business_id = ${businessId} AND mode = 'test'),
    tx AS (
      SELECT t.id,
        coalesce(sum(e.amount) FILTER (WHERE e.account_id IN (SELECT account_id FROM own) AND e.amount > 0), 0) AS credited,
        coalesce(sum(-e.amount) FILTER (WHERE e.account_id IN (SELECT account_id FROM own) AND e.amount < 0), 0) AS debited,
        coalesce(sum(e.amount) FILTER (WHERE a.kind = 'fee_revenue'), 0) AS fee, min(e.currency) AS currency
      FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE t.kind = 'payout_card_to_card' AND t.mode = 'test' AND t.created_at >= ${from.toISOString()}::timestamptz AND t.created_at < ${to.toISOString()}::timestamptz
      GROUP BY t.id
    )
    SELECT currency, 'in' AS side, count(*)::int AS count, sum(credited)::float8 AS amount, 0::float8 AS fee FROM tx WHERE credited > 0 AND debited = 0 GROUP BY currency
    UNION ALL
    SELECT currency, 'out', count(*)::int, sum(debited)::float8, sum(fee)::float8 FROM tx WHERE debited > 0 AND credited = 0 GROUP BY currency`);
  const zero = { count: 0, amount: 0, fee: 0 };
  const of = (currency: string, side: string) => {
    const row = r.rows.find((x) => x.currency === currency && x.side === side);
    return row ? { count: Number(row.count), amount: Number(row.amount), fee: Number(row.fee) } : zero;
  };
  return { in: (currency: string) => of(currency, 'in'), out: (currency: string) => of(currency, 'out') };
}
