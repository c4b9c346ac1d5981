import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCard, createTestBusiness, testDb, type TestBusiness } from '../../tests/helpers';
import { fundCard, setFees } from '../../tests/api/payouts-fixtures';
import { createPayout } from './create-payout';

interface Row {
  type: 'card_to_card' | 'b2b' | 'bank';
  payer: string;
  rule: { percent: number | string; fixed: number; min?: number; max?: number };
  amount: number;
  fee: number;
  sourceLoses: number;
  destinationGains: number;
}

// Fees are round_half_up(amount * percent / 100) + fixed, clamped to min and max.
const ROWS: Row[] = [
  { type: 'card_to_card', payer: 'sender', rule: { percent: 1.5, fixed: 0 }, amount: 1033, fee: 15, sourceLoses: 1048, destinationGains: 1033 },
  { type: 'card_to_card', payer: 'receiver', rule: { percent: 0.5, fixed: 0 }, amount: 1100, fee: 6, sourceLoses: 1100, destinationGains: 1094 },
  { type: 'card_to_card', payer: 'receiver', rule: { percent: 1, fixed: 20, min: 50 }, amount: 1000, fee: 50, sourceLoses: 1000, destinationGains: 950 },
  { type: 'b2b', payer: 'business', rule: { percent: 2.5, fixed: 0 }, amount: 1010, fee: 25, sourceLoses: 1010, destinationGains: 985 },
  { type: 'b2b', payer: 'customer', rule: { percent: '0.01', fixed: 7 }, amount: 5000, fee: 8, sourceLoses: 5008, destinationGains: 5000 },
  { type: 'bank', payer: 'business', rule: { percent: 10, fixed: 0, max: 300 }, amount: 9999, fee: 300, sourceLoses: 9999, destinationGains: 9699 },
  { type: 'bank', payer: 'customer', rule: { percent: 3.3333, fixed: 1 }, amount: 150, fee: 6, sourceLoses: 156, destinationGains: 150 },
];

describe('fee arithmetic for every payer rule, in the ledger', () => {
  let biz: TestBusiness;
  let merchant: TestBusiness;
  let source: string;
  let destination: string;
  beforeAll(async () => {
    biz = await createTestBusiness();
    merchant = await createTestBusiness();
    source = (await createCard(biz.test)).card_number;
    destination = (await createCard(biz.test)).card_number;
    await fundCard(biz, source, 1_000_000);
  });

  it.each(ROWS)('$type paid by $payer: amount $amount, fee $fee', async (row) => {
    await setFees(biz, 'test', [{ applies_to: row.type, ...row.rule }]);
    const destinationFields =
      row.type === 'card_to_card'
        ? { destination_card_number: destination }
        : row.type === 'b2b'
          ? { merchant_id: merchant.merchant_id }
          : { bank_slug: 'cbe', account_number: '1000123456789', account_name: 'A' };
    const answer = await createPayout(testDb(), {
      businessId: biz.id,
      mode: 'test',
      actor: { type: 'system', id: 'fee-test' },
      input: { card_number: source, amount: row.amount, charge_payer: row.payer, ...destinationFields },
    });
    const reference = 'initiator_reference' in answer ? answer.initiator_reference : answer.provider_reference;
    const entries = await testDb().execute<{ kind: string; amount: number; service_fee: number }>(sql`
      SELECT a.kind, e.amount, p.service_fee FROM payouts p
      JOIN ledger_entries e ON e.transaction_id = p.transaction_id
      JOIN ledger_accounts a ON a.id = e.account_id
      WHERE p.reference = ${reference}`);
    const byKind = Object.fromEntries(entries.rows.map((e) => [e.kind, Number(e.amount)]));
    const destinationKind = row.type === 'card_to_card' ? 'card' : row.type === 'b2b' ? 'business' : 'clearing';
    const cardEntries = entries.rows.filter((e) => e.kind === 'card').map((e) => Number(e.amount));
    const sourceDelta = row.type === 'card_to_card' ? Math.min(...cardEntries) : byKind.card;
    const destinationDelta = row.type === 'card_to_card' ? Math.max(...cardEntries) : byKind[destinationKind];

    expect(Number(entries.rows[0].service_fee)).toBe(row.fee);
    expect(sourceDelta).toBe(-row.sourceLoses);
    expect(destinationDelta).toBe(row.destinationGains);
    expect(byKind.fee_revenue).toBe(row.fee);
    expect(sourceDelta + destinationDelta + byKind.fee_revenue).toBe(0);
  });
});
