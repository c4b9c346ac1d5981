import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '@/lib/dashboard/list-audit-log';
import { auditSentence } from './audit-sentence';

const TZ = 'Africa/Addis_Ababa';
const AMHARIC = { locale: 'am' as const, calendar: 'ethiopic' as const };
const entry = (action: string, target: string | null, details: Record<string, unknown> = {}, subject: AuditEntry['subject'] = null) => ({
  action,
  target,
  details,
  subject,
});
const said = (e: ReturnType<typeof entry>) => auditSentence(e, TZ, AMHARIC).replaceAll('\u00a0', ' ');

describe('audit sentences in Amharic', () => {
  it('name amounts in ብር and days in the Ethiopian calendar, the same entries as the English ones', () => {
    const extended = entry('card.expiry_extended', '4921583047261138', { from: '2027-01-31T20:59:59.999Z', to: '2027-06-30T20:59:59.999Z' });
    expect(said(extended)).toBe('የካርድ 4921583047261138 ማብቂያ ቀን ከ23 ጥር 2019 ወደ 23 ሰኔ 2019 ተራዝሟል።');
    // English readers keep the ISO days the CSV export and its tests have always had.
    expect(auditSentence(extended, TZ)).toBe('Extended the expiry of card 4921583047261138 from 2027-01-31 to 2027-06-30.');
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
    expect(said(entry('payout.bank.created', 'bnk_1', { amount: 10_000, service_fee: 200, status: 'pending' }, bank))).toBe(
      'ብር 100.00 የባንክ ወይም የዲጂታል ቦርሳ ወጪ ክፍያ bnk_1 ከካርድ 4921583047261138 ወደ Commercial Bank of Ethiopia ሂሳብ 1000123456789 ተልኳል (የአገልግሎት ክፍያ ብር 2.00)፤ ባንኩ እስኪያረጋግጥ ይጠብቃል።',
    );
    expect(said(entry('approval.requested', '4000000000000002', { kind: 'adjustment', direction: 'decrease', amount: 2_500, currency: 'ETB' }))).toBe(
      'ከካርድ 4000000000000002 ብር 25.00 የሚቀንስ ማስተካከያ እንዲጸድቅ ተጠይቋል።',
    );
    expect(said(entry('business.expiry_policy_changed', null, { from: { policy: 'never' }, to: { policy: 'after_last_load', months: 12 } }))).toBe(
      'የካርድ ማብቂያ ደንቡ ከ“ፈጽሞ አያበቁም” ወደ “ለመጨረሻ ጊዜ ከተሞሉ ከ12 ወራት በኋላ ያበቃሉ” ተቀይሯል፤ ከአሁን ጀምሮ ለሚሰጡ ወይም ለሚሞሉ ካርዶች ይሠራል።',
    );
    expect(said(entry('webhook.failed_replayed', '2026-12-01T00:00:00.000Z/2026-12-02T00:00:00.000Z', { deliveries: 1 }))).toBe(
      'ከ22 ኅዳር 2019, 03:00 እስከ 23 ኅዳር 2019, 03:00 ለተፈጠሩ ክስተቶች ያልደረሱ መላኪያዎች እንደገና እንዲላኩ ተደርጓል፦ 1 መላኪያ ተሰልፏል።',
    );
    expect(said(entry('user.role_changed', 'a@b.test', { from: 'operator', to: 'finance' }))).toBe('የa@b.test ሚና ከኦፕሬተር ወደ ፋይናንስ ተቀይሯል።');
  });

  it('leave no English word in any family’s sentence', () => {
    const families = [
      entry('card.created', '4921583047261138'),
      entry('card.disabled', '4921583047261138', { reason: 'ጠፍቷል' }),
      entry('hold.captured', '4921583047261138', {
        hold_reference: 'hld_1',
        amount: 5_000,
        captured_amount: 3_750,
        fee: 10,
        currency: 'ETB',
        balance_after: 1,
      }),
      entry('payment.success', 'pay_1', { amount: 100, currency: 'ETB', type: 'hosted', card_number: '4921583047261138' }),
      entry('transfer.created', 'bnk_9', { amount: 100, currency: 'ETB', card_number: '4921583047261138' }),
      entry('business.limits_changed', 'ETB', { currency: 'ETB', mode: 'live', max_payout: 100_000, daily_payout: null, max_card_balance: 5 }),
      entry('business.settings_changed', null, { from: { customer_language: 'en' }, to: { customer_language: 'am' } }),
      entry('api_key.revoked', 'gk_test_ab12'),
      entry('webhook.replayed', 'evt_1', { outcome: 'in_flight' }),
      entry('user.recovery_code_used', 'a@b.test', { codes_left: 3 }),
      entry('approval.failed', '4921583047261138', { kind: 'payout', amount: 100, currency: 'ETB' }),
      entry('upload.expired', 'upl_1', { kind: 'payouts' }),
      entry('demo.created', null),
      entry('something.new', null),
    ];
    for (const e of families) {
      const words = said(e)
        .replace(/\b[\w.+-]+@[\w.-]+\b/g, '')
        .match(/\b[A-Za-z]{2,}\b/g)
        ?.filter((w) => !/^(bnk|hld|pay|evt|gk|upl|test|ab12|en|am|ETB|CSV)$/.test(w));
      expect(words ?? [], `${e.action}: ${said(e)}`).toEqual([]);
    }
  });
});
