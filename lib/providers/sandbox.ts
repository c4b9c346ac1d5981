import { newReference } from '../ids';
import { BANKS } from './banks';
import type { BankRail, PaymentProvider, WalletRail } from './provider-port';
import { NO_RECORDS } from './provider-records';

/** CONTRACT.md section 4: a sandbox that accepts what the quote let through (accountNumberRefusal) and fails accounts ending in 0000. */
export const sandboxBankRail: BankRail = {
  name: 'sandbox',
  async initiate() {},
  settleAfterMs: () => sandboxSettleDelayMs(),
  outcome: ({ accountNumber }) => (accountNumber.endsWith('0000') ? 'failed' : 'success'),
};

const DEFAULT_SETTLE_AFTER_MS = 3000;

/** TEST_SETTLE_AFTER_MS: default 3000; 0 means sandbox charges never settle by themselves. */
export function sandboxSettleDelayMs(env: Record<string, string | undefined> = process.env): number | null {
  const raw = env.TEST_SETTLE_AFTER_MS?.trim();
  const ms = raw ? Number(raw) : DEFAULT_SETTLE_AFTER_MS;
  if (!Number.isFinite(ms) || ms < 0) return DEFAULT_SETTLE_AFTER_MS;
  return ms === 0 ? null : ms;
}

/** The wallets a direct charge may use for a currency. */
export const walletsFor = (currency: string) => BANKS.filter((b) => b.type === 'wallet' && (b.currencies as readonly string[]).includes(currency));

/** CONTRACT.md section 4: accepts every request and settles after TEST_SETTLE_AFTER_MS. */
const sandboxWalletRail: WalletRail = {
  name: 'sandbox',
  async charge() {
    const delay = sandboxSettleDelayMs();
    return { settleAfter: delay === null ? null : new Date(Date.now() + delay) };
  },
};

/** The sandbox's magic value: a phone number ending in 0000 declines. */
export const sandboxChargeOutcome = (phoneNumber: string | null): 'success' | 'failed' => (phoneNumber?.endsWith('0000') ? 'failed' : 'success');

export const newProcessorReference = () => newReference('prc');

/** Test mode's provider: part of the contract (CONTRACT.md section 4), so it needs no registration. */
export const sandboxProvider: PaymentProvider = {
  name: 'sandbox',
  label: 'Sandbox',
  settings: () => ({ timeoutMs: 0, keyMode: 'test' }),
  payouts: sandboxBankRail,
  walletCharges: sandboxWalletRail,
  // Its payouts and payments are only our ledger's: nothing of its own to compare or show.
  records: NO_RECORDS,
};
