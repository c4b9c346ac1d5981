import { describe, expect, it } from 'vitest';
import { ACTIVE, DISABLED } from '../cards/card-status';
import { payerRule, quotePayout, type QuoteCard } from './payout-quote';

const card = (over: Partial<QuoteCard> = {}): QuoteCard => ({ business_id: 1, currency: 'ETB', status: ACTIVE, ...over });
const rule = { percentScaled: 15_000, fixed: 10, min: null, max: null }; // 1.5% + 10
const codes = (q: ReturnType<typeof quotePayout>) => q.refusals.map((r) => [r.code, r.field ?? null]);

describe('the payout quote', () => {
  it('says who pays by what it does to the money, for every type and payer', () => {
    expect(payerRule('card_to_card', undefined)).toEqual({ chargePayer: 'sender', feeFromAmount: false });
    expect(payerRule('card_to_card', 'receiver')).toEqual({ chargePayer: 'receiver', feeFromAmount: true });
    expect(payerRule('b2b', undefined)).toEqual({ chargePayer: 'business', feeFromAmount: true });
    expect(payerRule('bank', 'customer')).toEqual({ chargePayer: 'customer', feeFromAmount: false });
    expect(() => payerRule('bank', 'sender')).toThrow(expect.objectContaining({ code: 'invalid_charge_payer', field: 'charge_payer' }));
  });

  it('adds the fee on top or takes it from the amount, never both', () => {
    const base = { businessId: 1, type: 'card_to_card' as const, amount: 10_000, rule, source: card() };
    expect(quotePayout({ ...base, payer: payerRule('card_to_card', 'sender') })).toMatchObject({ fee: 160, debit: 10_160, credit: 10_000, refusals: [] });
    expect(quotePayout({ ...base, payer: payerRule('card_to_card', 'receiver') })).toMatchObject({ fee: 160, debit: 10_000, credit: 9_840, refusals: [] });
  });

  it('lists every failing check in the order the payout refuses, each on its field', () => {
    const q = quotePayout({
      businessId: 1,
      type: 'card_to_card',
      amount: 100,
      payer: payerRule('card_to_card', 'receiver'),
      rule: { ...rule, fixed: 500 },
      source: card({ status: DISABLED }),
      destinationCard: { card: undefined },
      balance: 0,
    });
    expect(codes(q)).toEqual([
      ['amount_below_fee', 'amount'],
      ['card_disabled', null],
      ['destination_card_not_found', null],
      ['insufficient_balance', 'amount'],
    ]);
  });

  it('refuses another business’s source as not found, a destination of another currency, and a bank that does not take the currency', () => {
    const payer = payerRule('card_to_card', 'sender');
    expect(codes(quotePayout({ businessId: 2, type: 'card_to_card', amount: 1_000, payer, rule, source: card() }))).toEqual([['card_not_found', null]]);
    expect(
      codes(
        quotePayout({ businessId: 1, type: 'card_to_card', amount: 1_000, payer, rule, source: card(), destinationCard: { card: card({ currency: 'USD' }) } }),
      ),
    ).toEqual([['currency_mismatch', null]]);
    expect(
      codes(
        quotePayout({ businessId: 1, type: 'card_to_card', amount: 1_000, payer, rule, source: card(), destinationCard: { card: card({ status: DISABLED }) } }),
      ),
    ).toEqual([['destination_card_disabled', null]]);
    const bank = { businessId: 1, type: 'bank' as const, amount: 1_000, payer: payerRule('bank', 'customer'), rule, source: card() };
    expect(codes(quotePayout({ ...bank, bankSlug: 'stanbic-ug' }))).toEqual([['payout_request_failed', 'bank_slug']]);
    expect(codes(quotePayout({ ...bank, bankSlug: 'cbe' }))).toEqual([]);
  });

  it('keeps the API’s messages word for word', () => {
    const q = quotePayout({ businessId: 1, type: 'b2b', amount: 100, payer: payerRule('b2b', 'business'), rule: { ...rule, fixed: 100 }, source: card() });
    expect(q.refusals[0].detail).toBe('The amount must be greater than the service fee of 102.');
  });
});
