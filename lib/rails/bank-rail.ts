import type { Mode } from '../validation';

export interface BankPayoutInstruction {
  reference: string;
  bankSlug: string;
  accountNumber: string;
  accountName: string;
  currency: string;
  /** What the destination receives: the amount, less the fee when the business pays it. */
  amount: number;
}

/** How bank and wallet payouts leave the ledger: accepted now, settled later by a status update. */
export interface BankRail {
  name: string;
  /** Throws when the rail refuses the instruction; returns when it is accepted and pending. */
  initiate(instruction: BankPayoutInstruction): Promise<void>;
  /** Milliseconds until the rail settles an accepted payout by itself, or null when it never does. */
  settleAfterMs(): number | null;
  /** The outcome the rail reports when it settles by itself. */
  outcome(instruction: Pick<BankPayoutInstruction, 'accountNumber'>): 'success' | 'failed';
}

/** CONTRACT.md section 4: a sandbox that accepts everything and fails accounts ending in 0000. */
export const sandboxBankRail: BankRail = {
  name: 'sandbox',
  async initiate() {},
  settleAfterMs() {
    const ms = Number(process.env.TEST_SETTLE_AFTER_MS ?? 3000);
    return Number.isFinite(ms) && ms > 0 ? ms : null;
  },
  outcome: ({ accountNumber }) => (accountNumber.endsWith('0000') ? 'failed' : 'success'),
};

const rails: Record<Mode, BankRail | undefined> = { test: sandboxBankRail, live: undefined };

/** Plugs a provider adapter in for a mode (live has none until one is configured); undefined unplugs it. */
export function useBankRail(mode: Mode, rail: BankRail | undefined): void {
  rails[mode] = rail;
}

export function bankRailFor(mode: Mode): BankRail | undefined {
  return rails[mode];
}
