import type { ChapaFake, FakeAnswer } from './core';
import type { FakeTransaction } from './payments';

/**
 * Chapa's refund (POST /v1/refund/{tx_ref}): of a successful transaction, in
 * full (no amount) or in part, as often as something is left; `reference`,
 * when sent, must be unique within the merchant. Chapa's own charge is not
 * refunded. A refused refund moves nothing.
 */

interface FakeRefund {
  reference: string;
  txRef: string;
  /** Minor units, to add up exactly. */
  amount: number;
  currency: string;
  reason: string | null;
  createdAt: string;
}

const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const failed = (status: number, message: unknown): FakeAnswer => ({ status, json: { message, status: 'failed', data: null } });
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const minor = (units: string) => {
  const [whole, frac = ''] = units.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
};
const units = (n: number) => `${Math.trunc(n / 100)}.${String(n % 100).padStart(2, '0')}`;

export function registerRefundRoutes(fake: ChapaFake): void {
  const refunds = () => fake.store('refunds', () => new Map<string, FakeRefund>());
  const txs = () => fake.store('transactions', () => new Map<string, FakeTransaction>());

  fake.route('POST', '/refund/:tx_ref', 'refund', (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const t = txs().get(req.params.tx_ref);
    if (!t) return failed(404, 'Transaction not found');
    if (t.status !== 'success') return failed(400, 'Only successful transactions can be refunded');
    const reference = text(b.reference) ?? fake.nextId('RF');
    if (refunds().has(reference)) return failed(400, 'Refund reference has been used before');
    const paid = minor(t.amount);
    const done = [...refunds().values()].filter((r) => r.txRef === t.txRef).reduce((sum, r) => sum + r.amount, 0);
    const asked = text(b.amount);
    if (asked !== null && (!AMOUNT.test(asked) || minor(asked) <= 0)) return failed(400, { amount: ['The amount must be a number greater than 0.'] });
    const amount = asked === null ? paid - done : minor(asked);
    if (amount <= 0) return failed(400, 'This transaction has already been refunded in full');
    if (amount > paid - done) return failed(400, `The refund amount exceeds the refundable balance of ${units(paid - done)} ${t.currency}`);
    const refund: FakeRefund = { reference, txRef: t.txRef, amount, currency: t.currency, reason: text(b.reason), createdAt: new Date().toISOString() };
    refunds().set(reference, refund);
    const data = { tx_ref: t.txRef, reference, amount: units(amount), currency: t.currency, status: 'refunded', reason: refund.reason, meta: b.meta ?? null };
    fake.sendWebhook('charge.refunded', data);
    return { status: 200, json: { message: 'Refund processed successfully', status: 'success', data } };
  });
}
