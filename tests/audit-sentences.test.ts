import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { auditSentence } from '../components/audit/audit-sentence';
import type { AuditEntry } from '../lib/dashboard/list-audit-log';
import { listAuditLog } from '../lib/dashboard/list-audit-log';
import { testDb, waitFor } from './helpers';
import { businessWithCard } from './api/payouts-fixtures';

process.env.DATABASE_URL = inject('databaseUrl');

const TZ = 'Africa/Addis_Ababa';
// Intl puts a no-break space between the currency and the figure; the sentences are compared with plain spaces.
const said = (e: Parameters<typeof auditSentence>[0]) => auditSentence(e, TZ).replaceAll('\u00a0', ' ');
const entry = (action: string, target: string | null, details: Record<string, unknown> = {}, subject: AuditEntry['subject'] = null) => ({
  action,
  target,
  details,
  subject,
});

describe('audit entries as sentences', () => {
  it('tells an expiry extension with both days in the business’s zone, and the expiry policy’s old and new rule', () => {
    const extended = entry('card.expiry_extended', '4921583047261138', {
      from: '2027-01-31T20:59:59.999Z',
      to: '2027-06-30T20:59:59.999Z',
      reason: 'Asked nicely',
    });
    expect(said(extended)).toBe('Extended the expiry of card 4921583047261138 from 2027-01-31 to 2027-06-30. Reason given: “Asked nicely”.');
    const policy = entry('business.expiry_policy_changed', null, { from: { policy: 'never', months: null }, to: { policy: 'after_last_load', months: 12 } });
    expect(said(policy)).toBe(
      'Changed the card expiry policy from “never expire” to “expire 12 months after their last load”, for cards issued or loaded from now on.',
    );
    const back = entry('business.expiry_policy_changed', null, { from: { policy: 'after_issue', months: 1 }, to: { policy: 'never', months: null } });
    expect(said(back)).toBe('Changed the card expiry policy from “expire 1 month after issue” to “never expire”, for cards issued or loaded from now on.');
  });

  it('tells CSV uploads started, held for approval, decided and cancelled', () => {
    expect(said(entry('upload.started', 'upl_1', { kind: 'cards' }))).toBe('Started the CSV upload of cards upl_1.');
    expect(said(entry('upload.awaiting_approval', 'upl_2', { kind: 'payouts' }))).toBe(
      'Started the CSV upload of payouts upl_2; its total reaches the approval threshold, so it waits for a second person.',
    );
    expect(said(entry('upload.approved', 'upl_2', { kind: 'payouts' }))).toBe('Approved the CSV upload of payouts upl_2; its rows run now.');
    expect(said(entry('upload.cancelled', 'upl_1', { kind: 'cards' }))).toBe('Cancelled the CSV upload of cards upl_1; the rows not yet run will not run.');
    // A payout upload waiting for a second person is an approval request: its lines are the approvals' own.
    expect(said(entry('approval.requested', 'upl_3', { kind: 'upload', reference: 'apr_1' }))).toBe('Asked for approval of a CSV upload of payouts upl_3.');
    expect(said(entry('approval.expired', 'upl_3', { kind: 'upload', reference: 'apr_1' }))).toBe(
      'The CSV upload of payouts upl_3 expired after 72 hours without a decision; its money was released.',
    );
  });

  it('tells team changes with the old and new role', () => {
    expect(said(entry('user.role_changed', 'a@b.test', { from: 'operator', to: 'finance' }))).toBe('Changed the role of a@b.test from operator to finance.');
    expect(said(entry('user.added', 'a@b.test', { role: 'support' }))).toBe('Added a@b.test to the team as support.');
    expect(said(entry('user.removed', 'a@b.test', { role: 'finance' }))).toBe('Removed a@b.test (finance) from the team.');
    expect(said(entry('user.invited', 'a@b.test', { role: 'support' }))).toBe(
      'Invited a@b.test to join the team as support; the link works once, for 48 hours.',
    );
    expect(said(entry('user.invitation_revoked', 'a@b.test', { role: 'owner' }))).toBe('Revoked the invitation of a@b.test (owner); its link no longer works.');
    expect(said(entry('user.joined', 'a@b.test', { role: 'operator' }))).toBe('a@b.test accepted the invitation and joined the team as operator.');
    expect(said(entry('user.reset_link_created', 'a@b.test', {}))).toBe('Made a password reset link for a@b.test; it works once, for 24 hours.');
    expect(said(entry('user.password_reset', 'a@b.test', {}))).toBe('a@b.test chose a new password through a reset link.');
    expect(said(entry('user.password_changed', 'a@b.test', {}))).toBe('a@b.test changed their own password.');
    expect(said(entry('user.two_factor_enabled', 'a@b.test', {}))).toBe('a@b.test turned on two-factor sign-in and received 10 recovery codes.');
    expect(said(entry('user.two_factor_disabled', 'a@b.test', { proof: 'code' }))).toBe('a@b.test turned off two-factor sign-in, confirming with a code.');
    expect(said(entry('user.recovery_code_used', 'a@b.test', { codes_left: 1 }))).toBe('a@b.test signed in with a recovery code; 1 is left.');
    expect(said(entry('business.two_factor_required', null, { required: false }))).toBe('Stopped requiring two-factor sign-in for the business.');
  });

  it('tells limits set, and a payment the card could not take under its limit', () => {
    expect(
      said(entry('business.limits_changed', 'ETB', { mode: 'live', currency: 'ETB', max_payout: 100_000, daily_payout: null, max_card_balance: 250_050 })),
    ).toBe('Set the ETB limits (live mode): largest payout ETB 1,000.00, payouts per day none, most a card may hold ETB 2,500.50.');
    expect(
      said(
        entry('business.limits_changed', 'ETB', {
          mode: 'test',
          currency: 'ETB',
          max_payout: null,
          daily_payout: null,
          max_card_balance: null,
          spend_code_over: 100_000,
        }),
      ),
    ).toBe("Set the ETB limits (test mode): largest payout none, payouts per day none, most a card may hold none. Cardholder's code over: ETB 1,000.00.");
    expect(
      said(
        entry('payment.success', 'pay_1', {
          amount: 2_000,
          credited_to: 'business_account',
          limit_exceeded: 'max_card_balance',
          card_number: '4921583047261138',
        }),
      ),
    ).toMatch(/would have taken card 4921583047261138 over its maximum balance, so the business balance was credited\.$/);
  });

  it('gives amounts in currency units with bank and business names, never codes or slugs', () => {
    const bank = {
      kind: 'payout' as const,
      amount: 10_000,
      currency: 'ETB',
      payoutType: 'bank',
      isLedgerTopup: false,
      bankSlug: 'cbe',
      accountNumber: '1000123456789',
      sourceCard: '4921583047261138',
    };
    const created = said(entry('payout.bank.created', 'bnk_1', { amount: 10_000, service_fee: 200, status: 'pending' }, bank));
    expect(created).toBe(
      'Sent a bank or wallet payout bnk_1 of ETB 100.00 (fee ETB 2.00) from card 4921583047261138 to Commercial Bank of Ethiopia account 1000123456789; it waits for the bank to confirm.',
    );
    const b2b = {
      kind: 'payout' as const,
      amount: 500,
      currency: 'ETB',
      payoutType: 'b2b',
      isLedgerTopup: false,
      sourceCard: '4921583047261138',
      merchantName: 'Abebe Books',
    };
    expect(said(entry('payout.b2b.created', 'b2b_1', { amount: 500, service_fee: 0, status: 'success' }, b2b))).toBe(
      'Sent a payout to another business b2b_1 of ETB 5.00 from card 4921583047261138 to Abebe Books; it succeeded at once.',
    );
    const failed = said(
      entry(
        'payout.failed',
        'bnk_1',
        { requested: 'failed', refunded_to: 'card' },
        { ...bank, failureReason: 'Commercial Bank of Ethiopia refused the account number.' },
      ),
    );
    expect(failed).toBe(
      'Bank or wallet payout bnk_1 of ETB 100.00 from card 4921583047261138 to Commercial Bank of Ethiopia account 1000123456789 failed: Commercial Bank of Ethiopia refused the account number. The money went back to the source card.',
    );
    const topup = { kind: 'payout' as const, amount: 5_000, currency: 'ETB', payoutType: 'bank', isLedgerTopup: true, destinationCard: '4921583047261138' };
    expect(said(entry('payout.success', 'bnk_2', {}, topup))).toBe('Top-up bnk_2 of ETB 50.00 from the business balance to card 4921583047261138 succeeded.');
    expect(said(entry('business.credited', 'ETB', { amount: 50_000, currency: 'ETB' }))).toBe('The business balance was credited with ETB 500.00.');
    expect(said(entry('card.cancelled', '4921583047261138', { moved_to_business_account: 1234 }, { kind: 'card', amount: null, currency: 'ETB' }))).toBe(
      'Cancelled card 4921583047261138; its balance of ETB 12.34 moved to the business balance.',
    );
    const redeemed = { amount: 2_550, fee: 110, currency: 'ETB', balance_after: 7_450, merchant_reference: 'till-7 0042' };
    expect(said(entry('card.redeemed', '4921583047261138', redeemed))).toBe(
      'Redeemed ETB 25.50 from card 4921583047261138 for receipt till-7 0042 (fee ETB 1.10); the card then held ETB 74.50.',
    );
    const hold = { hold_reference: 'hld_1', amount: 5_000, currency: 'ETB', balance_after: 2_000 };
    expect(said(entry('hold.created', '4921583047261138', hold))).toBe(
      'A till held ETB 50.00 on card 4921583047261138 hld_1; the card then held ETB 20.00 available.',
    );
    expect(said(entry('hold.captured', '4921583047261138', { ...hold, captured_amount: 3_750, fee: 0, balance_after: 3_250 }))).toBe(
      'Captured ETB 37.50 of the ETB 50.00 hold hld_1 on card 4921583047261138, the rest released; the card then held ETB 32.50 available.',
    );
    expect(said(entry('hold.expired', '4921583047261138', { ...hold, balance_after: 7_000 }))).toBe(
      'The ETB 50.00 hold hld_1 on card 4921583047261138 expired uncaptured: released; the card then held ETB 70.00 available.',
    );
    const charge = {
      kind: 'payment' as const,
      amount: 2_550,
      currency: 'ETB',
      paymentType: 'direct-charge',
      paymentMethod: 'mpesa',
      cardNumber: '4921583047261138',
    };
    expect(
      said(entry('payment.failed', 'pay_1', { amount: 2_550, service_fee: 0 }, { ...charge, failureReason: "The customer's wallet declined the charge." })),
    ).toBe("Wallet charge (M-PESA Ethiopia) pay_1 of ETB 25.50 failed: The customer's wallet declined the charge.");
    expect(
      said(
        entry('business.settings_changed', null, {
          from: { time_zone: 'Africa/Addis_Ababa', country: 'ET' },
          to: { time_zone: 'Europe/London', country: 'ET' },
        }),
      ),
    ).toBe('Changed the time zone from Africa/Addis_Ababa to Europe/London.');
  });

  it('tells approvals with what waited, how much, and what became of it', () => {
    const card = '4000000000000002';
    const payout = { kind: 'payout', amount: 60_000, currency: 'ETB', reference: 'apr_x' };
    expect(said(entry('approval.requested', card, payout))).toBe(`Asked for approval of a payout of ETB 600.00 from card ${card}.`);
    expect(said(entry('approval.approved', card, { ...payout, result_reference: 'c2c_y' }))).toBe(
      `Approved the payout of ETB 600.00 from card ${card} (c2c_y).`,
    );
    expect(said(entry('approval.rejected', card, { ...payout, note: 'Not agreed' }))).toBe(
      `Rejected the payout of ETB 600.00 from card ${card}. Note: “Not agreed”.`,
    );
    const adjustment = { kind: 'adjustment', direction: 'decrease', amount: 2_500, currency: 'ETB', reference: 'apr_z' };
    expect(said(entry('approval.expired', card, adjustment))).toBe(
      `The adjustment taking ETB 25.00 from card ${card} expired after 72 hours without a decision; its money was released.`,
    );
    expect(said(entry('approval.threshold_set', 'ETB', { currency: 'ETB', amount: 50_000 }))).toBe('Set the approval threshold of ETB payouts to ETB 500.00.');
    expect(said(entry('approval.threshold_set', 'USD', { currency: 'USD', amount: null }))).toBe('Removed the approval threshold of USD payouts.');
  });

  it('no sentence carries an action code, a slug or "minor units"', () => {
    const actions = [
      'card.created',
      'card.disabled',
      'card.enabled',
      'card.provider_disabled',
      'card.cancelled',
      'payout.card_to_card.created',
      'payout.success',
      'payout.failed',
      'transfer.created',
      'payment.created',
      'payment.success',
      'payment.cancelled',
      'api_key.created',
      'api_key.revoked',
      'webhook.url_set',
      'webhook.secret_rotated',
      'webhook.secret_revealed',
      'webhook.replayed',
      'webhook.failed_replayed',
      'user.added',
      'user.invited',
      'user.invitation_revoked',
      'user.joined',
      'user.reset_link_created',
      'user.password_reset',
      'user.password_changed',
      'user.two_factor_enabled',
      'user.two_factor_disabled',
      'user.recovery_code_used',
      'business.two_factor_required',
      'demo.seeded',
      'approval.requested',
      'approval.approved',
      'approval.rejected',
      'approval.withdrawn',
      'approval.expired',
      'approval.failed',
      'approval.threshold_set',
      'something.new',
    ];
    for (const action of actions) {
      const s = said(entry(action, 'x', { amount: 100, currency: 'ETB', role: 'owner' }));
      expect(s, action).not.toContain(action);
      expect(s, action).not.toMatch(/minor units|_to_|cbe\b|direct-charge|\bb2b\b/);
      expect(s, action).toMatch(/\.$/);
    }
  });

  it('reads the payout behind an entry from the database, scoped to the business', async () => {
    const { biz, card } = await businessWithCard(20_000);
    const res = await biz.test.post('/api/v1/card/payouts', {
      card_number: card.card_number,
      amount: 5_000,
      bank_slug: 'awash',
      account_number: '10009999990000',
      account_name: 'No',
    });
    const ref = res.body.data.provider_reference as string;
    await testDb().execute(sql`UPDATE payouts SET settle_after = now() WHERE reference = ${ref}`);
    await waitFor(async () =>
      (await testDb().execute<{ status: string }>(sql`SELECT status FROM payouts WHERE reference = ${ref}`)).rows[0].status === 'failed' ? true : undefined,
    );
    const log = await listAuditLog(testDb(), { businessId: biz.id, mode: 'test', limit: 10, action: 'payout' });
    const sentences = log.items.filter((e) => e.target === ref).map(said);
    expect(sentences).toEqual([
      `Bank or wallet payout ${ref} of ETB 50.00 from card ${card.card_number} to Awash Bank account 10009999990000 failed: Awash Bank refused the account number. The money went back to the source card.`,
      `Sent a bank or wallet payout ${ref} of ETB 50.00 from card ${card.card_number} to Awash Bank account 10009999990000; it waits for the bank to confirm.`,
    ]);
  });
});
