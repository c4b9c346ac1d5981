import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sendPayoutSchema } from '../actions/payout.validation';
import { ServiceError } from '../errors';
import { payoutNet } from '../dashboard/net-amount';
import { payerRule, quotePayout } from './payout-quote';
import { CHARGE_PAYERS, PAYERS } from './payout-rules';
import type { PayoutType } from './payout-view';

const TYPES = Object.keys(PAYERS) as PayoutType[];
const card = { business_id: 1, currency: 'ETB' as const, status: 1 };

function apiAccepts(type: PayoutType, payer: string): boolean {
  try {
    payerRule(type, payer);
    return true;
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    return false;
  }
}

function formAccepts(type: PayoutType, payer: string): boolean {
  const fields = { submission_id: randomUUID(), card_number: '7115827154037173', destination_type: type, amount: '100', charge_payer: payer };
  const destination = {
    card_to_card: { destination_card_number: '4000000000000002' },
    b2b: { merchant_id: 'm_1' },
    bank: { bank_slug: 'cbe', account_number: '1000123456123', account_name: 'A B' },
  }[type];
  const parsed = sendPayoutSchema.safeParse({ ...fields, ...destination });
  return parsed.success || !parsed.error.issues.some((i) => i.path.join('.') === 'charge_payer');
}

describe('the charge_payer rule has one home', () => {
  it('the dashboard form accepts exactly the payers the API accepts, for every payout type', () => {
    for (const type of TYPES) {
      for (const payer of CHARGE_PAYERS) expect(formAccepts(type, payer), `${type} paid by ${payer}`).toBe(apiAccepts(type, payer));
    }
  });

  it("the lists' net is what the quote takes from the card, for every type and payer", () => {
    for (const type of TYPES) {
      for (const payer of PAYERS[type]) {
        const quote = quotePayout({
          businessId: 1,
          type,
          amount: 10_000,
          payer: payerRule(type, payer),
          rule: { percentScaled: 0, fixed: 137, min: null, max: null },
          source: card,
        });
        expect(quote.fee, `${type} paid by ${payer}`).toBe(137);
        expect(payoutNet({ payoutType: type, amount: 10_000, serviceFee: quote.fee, chargePayer: payer })).toBe(quote.debit);
      }
    }
  });
});
