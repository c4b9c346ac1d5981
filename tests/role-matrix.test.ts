import { beforeAll, describe, expect, it } from 'vitest';
import { can, PERMISSIONS, type Permission } from '../lib/auth/permissions';
import type { Role } from '../lib/auth/users';
import { adminClient, createCard, createTestBusiness, type TestBusiness } from './helpers';
import { getWithSession, PASSWORD, signInOverHttp, userOf } from './owners-auth-helpers';

/**
 * The role matrix written out by hand, as the README's Dashboard table says it. It is not read from
 * lib/auth/permissions.ts: a grant added there (operators reading reports, say) fails this test until
 * the table, and the README, say so too.
 */
const GRANTED: Record<Role, readonly Permission[]> = {
  owner: [
    'cards:read',
    'cards:create',
    'cards:status',
    'cards:cancel',
    'cards:expiry',
    'money:move',
    'money:approve',
    'payouts:upload',
    'payments:refund',
    'history:read',
    'history:export',
    'reports:read',
    'audit:read',
    'developers',
    'team',
    'settings',
    'account',
    'till',
  ],
  operator: ['cards:read', 'cards:create', 'cards:status', 'cards:cancel', 'money:move', 'history:read', 'account', 'till'],
  finance: [
    'cards:read',
    'cards:expiry',
    'money:approve',
    'payouts:upload',
    'payments:refund',
    'history:read',
    'history:export',
    'reports:read',
    'audit:read',
    'account',
  ],
  support: ['cards:read', 'cards:status', 'cards:expiry', 'account'],
  cashier: ['account', 'till'],
};

const ROLES = ['owner', 'operator', 'finance', 'support', 'cashier'] as const satisfies readonly Role[];

/**
 * Every dashboard page, export and route, with what each role gets over HTTP (owner, operator, finance, support, cashier):
 * 200 the page, 403 the forbidden page or the export's envelope, 404 not found, or `→/path` a redirect.
 * `OTHER_*` are another business's card, payout and payment: not found for every role that may open such a page.
 */
const MATRIX: [path: string, owner: Answer, operator: Answer, finance: Answer, support: Answer, cashier: Answer][] = [
  ['/', 200, 200, 200, '→/cards', '→/till'],
  ['/cards', 200, 200, 200, 200, 403],
  ['/cards/new', 200, 200, 403, 403, 403],
  ['/cards/upload', 200, 200, 403, 403, 403],
  ['/cards/expiring', 200, 403, 200, 200, 403],
  ['/cards/export', 200, 403, 200, 403, 403],
  ['/cards/OWN_CARD', 200, 200, 200, 200, 403],
  ['/cards/OTHER_CARD', 404, 404, 404, 404, 403],
  ['/payouts', 200, 200, 200, 403, 403],
  ['/payouts/new', 200, 200, 403, 403, 403],
  ['/payouts/OWN_PAYOUT', 200, 200, 200, 403, 403],
  ['/payouts/OTHER_PAYOUT', 404, 404, 404, 403, 403],
  ['/payouts/export', 200, 403, 200, 403, 403],
  ['/payouts/upload', 200, 403, 200, 403, 403],
  ['/payments', 200, 200, 200, 403, 403],
  ['/payments/new', 200, 200, 403, 403, 403],
  ['/payments/OWN_PAYMENT', 200, 200, 200, 403, 403],
  ['/payments/OTHER_PAYMENT', 404, 404, 404, 403, 403],
  ['/payments/export', 200, 403, 200, 403, 403],
  ['/search?q=Abebe', 200, 200, 200, 200, 403],
  ['/reports', 200, 403, 200, 403, 403],
  ['/reports/statement', 200, 403, 200, 403, 403],
  ['/reports/statement/export?currency=ETB', 200, 403, 200, 403, 403],
  ['/reports/liability', 200, 403, 200, 403, 403],
  ['/reports/liability/export/aged', 200, 403, 200, 403, 403],
  ['/reports/liability/export/dormant', 200, 403, 200, 403, 403],
  ['/reports/reconciliation', 200, 403, 200, 403, 403],
  ['/reports/reconciliation/export', 200, 403, 200, 403, 403],
  ['/developers', 200, 403, 403, 403, 403],
  ['/audit', 200, 403, 200, 403, 403],
  ['/audit/export', 200, 403, 200, 403, 403],
  ['/team', 200, 403, 403, 403, 403],
  ['/settings', 200, 403, 403, 403, 403],
  ['/approvals', 200, 200, 200, 403, 403],
  ['/account', 200, 200, 200, 200, 200],
  ['/till', 200, 200, 403, 403, 200],
  ['/reports/till', 200, 403, 200, 403, 403],
  ['/reports/till?location=1', 200, 403, 200, 403, 403],
];
type Answer = 200 | 403 | 404 | `→${string}`;

describe('the role matrix', () => {
  it('grants each role exactly the permissions of the written table', () => {
    for (const role of ROLES) {
      for (const permission of PERMISSIONS) expect(can(role, permission), `${role} ${permission}`).toBe(GRANTED[role].includes(permission));
    }
  });

  describe('over HTTP, every page, export and route as every role', () => {
    let own: TestBusiness;
    const values: Record<string, string> = {};
    const cookies = {} as Record<Role, string>;

    async function moneyOf(biz: TestBusiness, prefix: string) {
      const card = await createCard(biz.test);
      expect((await adminClient().post(`/api/admin/businesses/${biz.id}/balance`, { mode: 'test', currency: 'ETB', amount: 50_000 })).status).toBe(200);
      const topup = await biz.test.post('/api/v1/transfers', { amount: 20_000, bank_slug: 'link', account_number: card.card_number, account_name: 'Float' });
      expect(topup.status, JSON.stringify(topup.body)).toBeLessThan(300);
      const payment = await biz.test.post('/api/v1/card/payments', {
        type: 'hosted',
        amount: 1_500,
        card_number: card.card_number,
        merchant_reference: `ORD-${prefix}-${Date.now()}`,
      });
      expect(payment.status, JSON.stringify(payment.body)).toBeLessThan(300);
      values[`${prefix}_CARD`] = card.card_number;
      values[`${prefix}_PAYOUT`] = topup.body.data.provider_reference;
      values[`${prefix}_PAYMENT`] = payment.body.data.link_reference;
    }

    beforeAll(async () => {
      own = await createTestBusiness('Role matrix');
      await moneyOf(own, 'OWN');
      await moneyOf(await createTestBusiness('Role matrix, another business'), 'OTHER');
      for (const role of ROLES) {
        const user = await userOf(own.id, role);
        const { cookie } = await signInOverHttp(user.email, PASSWORD);
        expect(cookie, role).toBeTruthy();
        cookies[role] = cookie!;
      }
    });

    it.each(MATRIX)('%s', async (template, ...answers) => {
      const path = template.replace(/(OWN|OTHER)_(CARD|PAYOUT|PAYMENT)/, (name) => values[name]);
      const got: Answer[] = [];
      for (const role of ROLES) {
        const res = await getWithSession(path, cookies[role]);
        got.push(res.location ? `→${new URL(res.location, 'http://x').pathname}` : (res.status as Answer));
      }
      expect(Object.fromEntries(ROLES.map((r, i) => [r, got[i]]))).toEqual(Object.fromEntries(ROLES.map((r, i) => [r, answers[i]])));
    });
  });
});
