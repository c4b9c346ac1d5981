import type { UploadKind } from '../uploads/upload-kinds';
import type { Role } from './users';

export const PERMISSIONS = [
  'cards:read', // find and view cards
  'cards:create',
  'cards:status', // disable and enable
  'cards:cancel',
  'cards:expiry', // see the cards about to expire and extend one
  'money:move', // top-ups, payouts, payments, redemptions, adjustment requests
  'money:approve', // second-person approval of payouts over the threshold and of adjustments
  'payouts:upload', // a CSV file of payouts (dashboard uploads, lib/uploads/): finance's batch, paid from cards
  'payments:refund', // refunds of paid top-ups
  'history:read', // payouts, payments, activity
  'history:export',
  'reports:read', // statement, liability and breakage, reconciliation
  'audit:read',
  'developers', // API keys, webhook endpoint, delivery log
  'team',
  'settings', // limits per currency
  'account', // one's own password and two-factor sign-in: every role
  'till', // the counter's /till page: look a card up, redeem, hold, capture, void, one's own till report
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, readonly Permission[]> = {
  owner: PERMISSIONS,
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
  // A person at a counter: the till and their own account, nothing else.
  cashier: ['account', 'till'],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role]?.includes(permission) ?? false;
}

/** Who may upload, start and follow each kind of CSV upload (the approver of a payout upload needs money:approve). */
export const UPLOAD_PERMISSIONS: Record<UploadKind, Permission> = { cards: 'cards:create', payouts: 'payouts:upload' };
