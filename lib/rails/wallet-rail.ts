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

export const DEFAULT_SETTLE_AFTER_MS = 3000;

/** TEST_SETTLE_AFTER_MS: default 3000; 0 means sandbox charges never settle by themselves. */
export function sandboxSettleDelayMs(env: Record<string, string | undefined> = process.env): number | null {
  const raw = env.TEST_SETTLE_AFTER_MS?.trim();
  const ms = raw ? Number(raw) : DEFAULT_SETTLE_AFTER_MS;
  if (!Number.isFinite(ms) || ms < 0) return DEFAULT_SETTLE_AFTER_MS;
  return ms === 0 ? null : ms;
}

/** The wallets a direct charge may use for a currency. */
export const walletsFor = (currency: string) => BANKS.filter((b) => b.type === 'wallet' && (b.currencies as readonly string[]).includes(currency));

/**
 * Asks the wallet rail to push a payment request to the customer's phone.
 * Test mode is the sandbox; live mode has no processor configured yet, so it
 * refuses before anything is recorded.
 */
export async function requestWalletCharge(req: WalletChargeRequest): Promise<WalletChargeAccepted> {
  if (req.mode === 'live') {
    throw new ServiceError('payment_request_failed', 'No live wallet processor is configured; the charge was not requested.');
  }
  const delay = sandboxSettleDelayMs();
  return { settleAfter: delay === null ? null : new Date(Date.now() + delay) };
}

/** The sandbox's magic value: a phone number ending in 0000 declines. */
export const sandboxChargeOutcome = (phoneNumber: string | null): 'success' | 'failed' => (phoneNumber?.endsWith('0000') ? 'failed' : 'success');

export const newProcessorReference = () => newReference('prc');
