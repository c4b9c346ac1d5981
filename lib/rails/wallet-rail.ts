import { ServiceError } from '../errors';
import { newReference } from '../ids';
import type { Mode } from '../validation';
import { BANKS } from './banks';

export interface WalletChargeRequest {
  mode: Mode;
  paymentMethod: string;
  phoneNumber: string;
  amount: number;
  currency: string;
  reference: string;
}

export interface WalletChargeAccepted {
  /** When the sandbox settles the charge by itself; null means only a test helper will. */
  settleAfter: Date | null;
}

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

/** How direct charges reach a customer's wallet: the charge is requested now and settles later. */
export interface WalletRail {
  name: string;
  /** Throws when the processor refuses; returns once the request is on its way to the phone. */
  charge(req: WalletChargeRequest): Promise<WalletChargeAccepted>;
}

/** CONTRACT.md section 4: accepts every request and settles after TEST_SETTLE_AFTER_MS. */
export const sandboxWalletRail: WalletRail = {
  name: 'sandbox',
  async charge() {
    const delay = sandboxSettleDelayMs();
    return { settleAfter: delay === null ? null : new Date(Date.now() + delay) };
  },
};

const rails: Record<Mode, WalletRail | undefined> = { test: sandboxWalletRail, live: undefined };

/** Plugs a processor adapter in for a mode (live has none until one is configured); undefined unplugs it. */
export function useWalletRail(mode: Mode, rail: WalletRail | undefined): void {
  rails[mode] = rail;
}

function walletRailFor(mode: Mode): WalletRail {
  const rail = rails[mode];
  if (!rail) throw new ServiceError('payment_request_failed', `No ${mode} wallet processor is configured; the charge was not requested.`);
  return rail;
}

/** Refuses before anything is recorded when the mode has no wallet processor. */
export function assertWalletRail(mode: Mode): void {
  walletRailFor(mode);
}

/** Asks the mode's wallet rail to push a payment request to the customer's phone. */
export function requestWalletCharge(req: WalletChargeRequest): Promise<WalletChargeAccepted> {
  return walletRailFor(req.mode).charge(req);
}

/** The sandbox's magic value: a phone number ending in 0000 declines. */
export const sandboxChargeOutcome = (phoneNumber: string | null): 'success' | 'failed' => (phoneNumber?.endsWith('0000') ? 'failed' : 'success');

export const newProcessorReference = () => newReference('prc');
