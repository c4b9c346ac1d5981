import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { DashboardSession } from '../lib/auth/session-types';
import { runActionAs } from '../lib/actions/define-action';
import { previewPayout, sendPayout } from '../lib/actions/payout-actions';
import { fundCard, setFees } from './api/payouts-fixtures';
import { createCard, createTestBusiness, testDb, type TestBusiness } from './helpers';

// The actions run in this process against the tests' database, as the server would run them.
process.env.DATABASE_URL = inject('databaseUrl');

const operator = (biz: TestBusiness): DashboardSession => ({
  userId: 800_000 + biz.id,
  email: 'operator@example.com',
  businessId: biz.id,
  role: 'operator',
  mode: 'test',
  timeZone: 'Africa/Addis_Ababa',
  country: 'ET',
  actor: { type: 'user', id: String(800_000 + biz.id) },
});

let a: TestBusiness;
let b: TestBusiness;
let source: string;
let destination: string;
let usdCard: string;
let disabledSource: string;
let disabledDestination: string;

beforeAll(async () => {
  [a, b] = await Promise.all([createTestBusiness('Quote A'), createTestBusiness('Quote B')]);
  source = (await createCard(a.test)).card_number;
  destination = (await createCard(a.test)).card_number;
  usdCard = (await createCard(a.test, 'USD')).card_number;
  disabledSource = (await createCard(a.test)).card_number;
  disabledDestination = (await createCard(b.test)).card_number;
  await fundCard(a, source, 5_000_000);
  await fundCard(a, disabledSource, 10_000);
  expect((await a.test.patch(`/api/v1/card/${disabledSource}`, { status: 'disable' })).status).toBe(200);
  expect((await b.test.patch(`/api/v1/card/${disabledDestination}`, { status: 'disable' })).status).toBe(200);
  await setFees(a, 'test', [
    { applies_to: 'card_to_card', percent: '1.5', fixed: 10 },
    { applies_to: 'b2b', percent: '2', fixed: 0, min: 150 },
    { applies_to: 'bank', percent: '0.75', fixed: 25, max: 5_000 },
  ]);
});

/** What a payout moved in the ledger: the source's debit, the destination's credit, the fee. */
async function moved(reference: string) {
  const r = await testDb().execute<{ kind: string; amount: number }>(sql`
    SELECT la.kind, e.amount FROM payouts p
    JOIN ledger_entries e ON e.transaction_id = p.transaction_id
    JOIN ledger_accounts la ON la.id = e.account_id
    WHERE p.reference = ${reference}`);
  const rows = r.rows.map((x) => ({ kind: x.kind, amount: Number(x.amount) }));
  return {
    debit: -rows.find((x) => x.amount < 0)!.amount,
    fee: rows.find((x) => x.kind === 'fee_revenue')?.amount ?? 0,
    credit: rows.find((x) => x.amount > 0 && x.kind !== 'fee_revenue')!.amount,
  };
}

const destinations = {
  card_to_card: () => ({ destination_card_number: destination }),
  b2b: () => ({ merchant_id: b.merchant_id }),
  bank: () => ({ bank_slug: 'cbe', account_number: '1000200034001', account_name: 'Abebe Kebede' }),
};

const CASES = [
  ['card_to_card', 'sender'],
  ['card_to_card', 'receiver'],
  ['b2b', 'customer'],
  ['b2b', 'business'],
  ['bank', 'customer'],
  ['bank', 'business'],
] as const;

describe('one payout quote for the preview and the payout', () => {
  it.each(CASES)('%s paid by %s: the preview shows what the payout moves', async (type, payer) => {
    for (const amount of ['1,234.56', '250']) {
      const input = { card_number: source, destination_type: type, amount, charge_payer: payer, ...destinations[type]() };
      const preview = await runActionAs(previewPayout, operator(a), input);
      if (!preview.ok) throw new Error(preview.message);
      expect(preview.data.refusals).toEqual([]);
      const sent = await runActionAs(sendPayout, operator(a), { ...input, submission_id: randomUUID(), confirmed: true });
      if (!sent.ok) throw new Error(sent.message);
      const m = await moved(sent.data.reference);
      const d = preview.data;
      expect(d.amount === null ? null : { debit: d.debit, credit: d.credit, fee: d.fee }).toEqual(m);
      // Who pays: on top of the amount, or out of it; never both, never neither.
      expect(m.debit - m.credit).toBe(m.fee);
      expect(d.amount !== null && (d.feeFromAmount ? m.debit : m.credit)).toBe(amount === '250' ? 25_000 : 123_456);
    }
  });

  it.each([
    ['amount_below_fee', 'amount', { destination_type: 'b2b', charge_payer: 'business', amount: '1', merchant_id: '' }],
    ['card_disabled', 'card_number', { card_number: '', destination_type: 'card_to_card', charge_payer: 'sender', amount: '10' }],
    [
      'destination_card_disabled',
      'destination_card_number',
      { destination_type: 'card_to_card', charge_payer: 'sender', amount: '10', destination_card_number: '' },
    ],
    ['currency_mismatch', 'destination_card_number', { destination_type: 'card_to_card', charge_payer: 'sender', amount: '10', destination_card_number: '' }],
    ['payout_request_failed', 'bank_slug', { destination_type: 'bank', charge_payer: 'customer', amount: '10', bank_slug: 'stanbic-ug' }],
    [
      'payout_request_failed',
      'account_number',
      { destination_type: 'bank', charge_payer: 'customer', amount: '10', bank_slug: 'cbe', account_number: 'abc!@#' },
    ],
    ['insufficient_balance', 'amount', { destination_type: 'card_to_card', charge_payer: 'sender', amount: '60,000' }],
  ] as const)('refuses %s in the preview and the payout alike, on %s, moving nothing', async (code, field, partial) => {
    const input: Record<string, unknown> = {
      card_number: source,
      destination_card_number: destination,
      merchant_id: b.merchant_id,
      account_number: '1000200034001',
      account_name: 'Abebe Kebede',
      ...partial,
    };
    if (code === 'card_disabled') input.card_number = disabledSource;
    if (code === 'destination_card_disabled') input.destination_card_number = disabledDestination;
    if (code === 'currency_mismatch') input.destination_card_number = usdCard;
    if (code === 'amount_below_fee') input.merchant_id = b.merchant_id;
    const before = await testDb().execute(sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${a.id}`);
    const preview = await runActionAs(previewPayout, operator(a), input);
    if (!preview.ok) throw new Error(preview.message);
    expect(preview.data.refusals[0]).toMatchObject({ code, field });
    expect(preview.data.refusals[0].message).not.toMatch(/minor units|_/);
    const sent = await runActionAs(sendPayout, operator(a), { ...input, submission_id: randomUUID(), confirmed: true });
    expect(sent).toMatchObject({ ok: false, code, field });
    const after = await testDb().execute(sql`SELECT count(*)::int AS n FROM payouts WHERE business_id = ${a.id}`);
    expect(after.rows).toEqual(before.rows);
  });

  it('without an amount, the preview still gives the card’s currency and balance for the form', async () => {
    const res = await runActionAs(previewPayout, operator(a), { card_number: usdCard, destination_type: 'bank', charge_payer: 'customer' });
    expect(res).toMatchObject({ ok: true, data: { currency: 'USD', balance: 0, amount: null, active: true } });
  });

  it('another business’s card is not found, with the code and field the form needs', async () => {
    const res = await runActionAs(previewPayout, operator(b), { card_number: source, destination_type: 'bank', charge_payer: 'customer', amount: '10' });
    expect(res).toMatchObject({ ok: false, code: 'card_not_found', field: 'card_number', message: expect.stringMatching(/^Gift card not found/) });
  });
});
