import { chapaBankRail } from './chapa/chapa-bank-rail';
import { chapaConfig } from './chapa/config';
import type { Db } from '../db/client';
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

/** A provider request recorded in the same statement as the debit (table rail_requests). */
interface QueuedRailRequest {
  provider: string;
  /** The provider's own code for the bank or wallet. */
  bankCode: string;
}

/** How bank and wallet payouts leave the ledger: accepted now, settled later by a status update. */
export interface BankRail {
  name: string;
  /**
   * Before any debit: refuses a destination the rail cannot pay (a ServiceError) and, for a rail with an
   * outbox, names the request the payout statement queues with the debit (initiate then sends it).
   */
  prepare?(instruction: BankPayoutInstruction): Promise<QueuedRailRequest | undefined>;
  /** Fetches now what prepare would fetch (a bank list), so a prepare inside a transaction holding locks answers from memory. */
  warm?(): Promise<void>;
  /** Throws RailRefused when the rail refuses the instruction; returns when it is accepted or may still be (pending). */
  initiate(instruction: BankPayoutInstruction, db: Db): Promise<void>;
  /** Milliseconds until the rail settles an accepted payout by itself, or null when it never does. */
  settleAfterMs(): number | null;
  /** The outcome the rail reports when it settles by itself. */
  outcome(instruction: Pick<BankPayoutInstruction, 'accountNumber'>): 'success' | 'failed';
}

/** CONTRACT.md section 4: a sandbox that accepts what the quote let through (accountNumberRefusal) and fails accounts ending in 0000. */
export const sandboxBankRail: BankRail = {
  name: 'sandbox',
  async initiate() {},
  settleAfterMs() {
    const ms = Number(process.env.TEST_SETTLE_AFTER_MS ?? 3000);
    return Number.isFinite(ms) && ms > 0 ? ms : null;
  },
  outcome: ({ accountNumber }) => (accountNumber.endsWith('0000') ? 'failed' : 'success'),
};

// Live mode has Chapa's rail when CHAPA_SECRET_KEY is set (each bundle of the app builds its registry from the same env).
const rails: Record<Mode, BankRail | undefined> = { test: sandboxBankRail, live: chapaConfig() ? chapaBankRail : undefined };

/** Plugs a provider adapter in for a mode (live has none until one is configured); undefined unplugs it. */
export function useBankRail(mode: Mode, rail: BankRail | undefined): void {
  rails[mode] = rail;
}

export function bankRailFor(mode: Mode): BankRail | undefined {
  return rails[mode];
}
