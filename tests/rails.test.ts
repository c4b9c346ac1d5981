import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../lib/errors';
import { createPayment } from '../lib/payments/create-payment';
import { createPayout } from '../lib/payouts/create-payout';
import type { BankPayoutInstruction, BankRail, WalletChargeRequest, WalletRail } from '../lib/providers/provider-port';
import { plugProvider } from '../lib/providers/provider-registry';
import { RailRefused } from '../lib/providers/rail-refused';
import { sandboxProvider } from '../lib/providers/sandbox';
import { businessWithCard, cardBalance, eventsFor, setFees } from './api/payouts-fixtures';
import { createCard, createTestBusiness, randomPhone, testDb } from './helpers';

/**
 * Rails are swapped in this test process only (the shared server keeps the
 * sandbox), so the payouts are made through the core, as the API route does.
 */
afterEach(() => plugProvider('test', sandboxProvider));
const plugBankRail = (rail: BankRail) => plugProvider('test', { ...sandboxProvider, payouts: rail });
const plugWalletRail = (rail: WalletRail) => plugProvider('test', { ...sandboxProvider, walletCharges: rail });

const actor = { type: 'system' as const, id: 'bank-rail-test' };

function recordingRail(
  sent: { instruction: BankPayoutInstruction; payoutStatus: string | undefined }[],
  refuse: false | 'refused' | 'error' = false,
): BankRail {
  return {
    name: 'recording',
    async initiate(instruction) {
      const { rows } = await testDb().execute<{ status: string }>(sql`SELECT status FROM payouts WHERE reference = ${instruction.reference}`);
      sent.push({ instruction, payoutStatus: rows[0]?.status });
      if (refuse === 'refused') throw new RailRefused('the bank is closed');
      if (refuse === 'error') throw new Error('connection terminated unexpectedly');
    },
    settleAfterMs: () => null,
    outcome: () => 'success',
  };
}

const bankPayout = (businessId: number, cardNumber: string, amount: number, chargePayer?: string) =>
  createPayout(testDb(), {
    businessId,
    mode: 'test',
    actor,
    input: {
      card_number: cardNumber,
      amount,
      bank_slug: 'cbe',
      account_number: '1000123456123',
      account_name: 'Abebe Kebede',
      ...(chargePayer ? { charge_payer: chargePayer } : {}),
    },
  });

describe('bank rail instructions', () => {
  it('tells the rail what the destination receives, and only after the debit is recorded', async () => {
    const { biz, card } = await businessWithCard(10_000);
    await setFees(biz, 'test', [{ applies_to: 'bank', fixed: 50 }]);
    const sent: Parameters<typeof recordingRail>[0] = [];
    plugBankRail(recordingRail(sent));

    const byBusiness = (await bankPayout(biz.id, card.card_number, 1_000)) as { provider_reference: string };
    const byCustomer = (await bankPayout(biz.id, card.card_number, 1_000, 'customer')) as { provider_reference: string };

    expect(sent.map((s) => [s.instruction.reference, s.instruction.amount, s.payoutStatus])).toEqual([
      [byBusiness.provider_reference, 950, 'pending'],
      [byCustomer.provider_reference, 1_000, 'pending'],
    ]);
    expect(await cardBalance(biz.test, card.card_number)).toBe(10_000 - 1_000 - 1_050);
  });

  it('never instructs the rail for a payout the ledger refused', async () => {
    const { biz, card } = await businessWithCard(500);
    const sent: Parameters<typeof recordingRail>[0] = [];
    plugBankRail(recordingRail(sent));
    await expect(bankPayout(biz.id, card.card_number, 1_000)).rejects.toMatchObject({ code: 'insufficient_balance' });
    expect(sent).toEqual([]);
  });

  it('reverses the debit and announces the failure when the rail refuses', async () => {
    const { biz, card } = await businessWithCard(10_000);
    await setFees(biz, 'test', [{ applies_to: 'bank', fixed: 50 }]);
    const sent: Parameters<typeof recordingRail>[0] = [];
    plugBankRail(recordingRail(sent, 'refused'));

    const refused = await bankPayout(biz.id, card.card_number, 1_000, 'customer').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ServiceError);
    expect(refused).toMatchObject({ code: 'failed_to_initiate_payout', message: 'Failed to initiate payout' });

    const reference = sent[0].instruction.reference;
    const { rows } = await testDb().execute<{ status: string }>(sql`SELECT status FROM payouts WHERE reference = ${reference}`);
    expect(rows).toEqual([{ status: 'failed' }]);
    expect(await cardBalance(biz.test, card.card_number)).toBe(10_000);
    expect((await eventsFor(reference)).map((e) => e.type)).toEqual(['payout.failed']);
  });
  it('leaves the payout pending, debited, when initiate fails with anything but a refusal (the rail retries it)', async () => {
    const { biz, card } = await businessWithCard(10_000);
    const sent: Parameters<typeof recordingRail>[0] = [];
    plugBankRail(recordingRail(sent, 'error'));
    const answer = (await bankPayout(biz.id, card.card_number, 1_000)) as { provider_reference: string; status: string };
    expect(answer).toMatchObject({ provider_reference: sent[0].instruction.reference, status: 'PENDING' });
    const { rows } = await testDb().execute<{ status: string }>(sql`SELECT status FROM payouts WHERE reference = ${answer.provider_reference}`);
    expect(rows).toEqual([{ status: 'pending' }]);
    expect(await cardBalance(biz.test, card.card_number)).toBe(9_000);
    expect(await eventsFor(answer.provider_reference)).toEqual([]);
  });
});

function recordingWallet(sent: { request: WalletChargeRequest; paymentStatus: string | undefined }[], refuse = false): WalletRail {
  return {
    name: 'recording',
    async charge(request) {
      const { rows } = await testDb().execute<{ status: string }>(sql`SELECT status FROM payments WHERE link_reference = ${request.reference}`);
      sent.push({ request, paymentStatus: rows[0]?.status });
      if (refuse) throw new Error('the wallet is unreachable');
      return { settleAfter: null };
    },
  };
}

describe('wallet rail charges', () => {
  const directCharge = (businessId: number, cardNumber: string, merchantReference: string) =>
    createPayment(testDb(), {
      businessId,
      mode: 'test',
      actor,
      input: {
        type: 'direct-charge',
        card_number: cardNumber,
        amount: 2_500,
        phone_number: randomPhone(),
        payment_method: 'telebirr',
        merchant_reference: merchantReference,
      },
    });

  it('asks the customer to pay only for a recorded payment, never for a duplicate merchant_reference', async () => {
    const biz = await createTestBusiness();
    const card = await createCard(biz.test);
    const sent: Parameters<typeof recordingWallet>[0] = [];
    plugWalletRail(recordingWallet(sent));

    const first = await directCharge(biz.id, card.card_number, 'order-77');
    await expect(directCharge(biz.id, card.card_number, 'order-77')).rejects.toMatchObject({ code: 'duplicate_merchant_reference' });

    expect(sent.map((s) => [s.request.reference, s.request.amount, s.paymentStatus])).toEqual([[first.link_reference, 2_500, 'pending']]);
  });

  it('fails the payment and announces it when the wallet refuses, crediting nothing', async () => {
    const biz = await createTestBusiness();
    const card = await createCard(biz.test);
    const sent: Parameters<typeof recordingWallet>[0] = [];
    plugWalletRail(recordingWallet(sent, true));

    await expect(directCharge(biz.id, card.card_number, 'order-78')).rejects.toMatchObject({
      code: 'payment_request_failed',
      message: 'Payment request failed',
    });

    const reference = sent[0].request.reference;
    const { rows } = await testDb().execute<{ status: string }>(sql`SELECT status FROM payments WHERE link_reference = ${reference}`);
    expect(rows).toEqual([{ status: 'failed' }]);
    expect(await cardBalance(biz.test, card.card_number)).toBe(0);
    expect((await eventsFor(reference)).map((e) => e.type)).toEqual(['payment.failed']);
  });
});
