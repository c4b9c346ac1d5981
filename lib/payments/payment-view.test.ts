import { describe, expect, it } from 'vitest';
import { sandboxChargeOutcome, sandboxSettleDelayMs, walletsFor } from '../providers/sandbox';
import { eventPaymentType, recordStatus, toPaymentRecord, type Payment } from './payment-view';

const base: Payment = {
  id: 1,
  businessId: 1,
  mode: 'test',
  type: 'hosted',
  status: 'pending',
  linkReference: 'pay_1',
  merchantReference: null,
  failureReason: null,
  providerReference: null,
  currency: 'ETB',
  amount: 1000,
  serviceFee: 25,
  paymentMethod: null,
  phoneNumber: null,
  cardId: 1,
  cardNumber: '4000000000000002',
  transactionId: null,
  actorType: 'api_key',
  actorId: '1',
  createdAt: new Date('2024-01-02T03:04:05.678Z'),
  updatedAt: new Date('2024-01-02T03:04:06.000Z'),
  completedAt: null,
  settleAfter: null,
  providerCheckoutUrl: null,
  providerNextAction: null,
  providerRequestId: null,
  verifyState: null,
  verifyNote: null,
  verifiedAt: null,
  nextVerifyAt: null,
  verifyRequestedAt: null,
  verifyAttempts: 0,
  refundedAmount: 0,
};

describe('payment record', () => {
  it('keeps SPEC.md key order and leaves out empty optional fields', () => {
    expect(Object.keys(toPaymentRecord(base))).toEqual([
      'link_reference',
      'status',
      'currency',
      'amount',
      'service_fee',
      'card_number',
      'refunded_amount',
      'mode',
      'created_at',
      'updated_at',
    ]);
    const full = toPaymentRecord({ ...base, merchantReference: 'o-1', providerReference: 'prc_1', paymentMethod: 'telebirr', status: 'success' });
    expect(Object.keys(full)).toEqual([
      'link_reference',
      'merchant_reference',
      'provider_reference',
      'status',
      'currency',
      'amount',
      'service_fee',
      'payment_method',
      'card_number',
      'refunded_amount',
      'mode',
      'created_at',
      'updated_at',
    ]);
    expect(full.created_at).toBe('2024-01-02T03:04:05.678Z');
  });

  it('shows only the record states of SPEC.md: cancelled reads as failed', () => {
    expect(['pending', 'success', 'failed', 'cancelled'].map(recordStatus)).toEqual(['pending', 'success', 'failed', 'failed']);
  });

  it('names the webhook payment_type link for hosted and direct_charge for wallets', () => {
    expect([eventPaymentType('hosted'), eventPaymentType('direct-charge')]).toEqual(['link', 'direct_charge']);
  });
});

describe('sandbox wallet rules', () => {
  it('reads TEST_SETTLE_AFTER_MS: default 3000, 0 never, nonsense falls back to the default', () => {
    expect(sandboxSettleDelayMs({})).toBe(3000);
    expect(sandboxSettleDelayMs({ TEST_SETTLE_AFTER_MS: '0' })).toBeNull();
    expect(sandboxSettleDelayMs({ TEST_SETTLE_AFTER_MS: '250' })).toBe(250);
    expect(sandboxSettleDelayMs({ TEST_SETTLE_AFTER_MS: 'soon' })).toBe(3000);
  });

  it('declines phone numbers ending in 0000 only', () => {
    expect(sandboxChargeOutcome('+251911230000')).toBe('failed');
    expect(sandboxChargeOutcome('+251911200001')).toBe('success');
  });

  it('offers only wallets that take the card currency', () => {
    expect(walletsFor('ETB').map((w) => w.slug)).toEqual(['telebirr', 'mpesa', 'cbebirr']);
    expect(walletsFor('UGX').map((w) => w.slug)).toEqual(['mtn-momo-ug']);
  });
});
