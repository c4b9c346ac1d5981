import { ServiceError } from '../errors';
import type { Mode } from '../validation';
import type { BankRail, PaymentProvider, ProviderEvents, ProviderInbound, WalletChargeAccepted, WalletChargeRequest, WalletRail } from './provider-port';
import { sandboxProvider } from './sandbox';

interface Registry {
  providers: Record<Mode, PaymentProvider | undefined>;
  events: ProviderEvents | undefined;
}

// On globalThis: the standalone process (tsx) and the Next.js bundles load their own copies of this module,
// and a route handler must see what the composition root registered at start.
const KEY = Symbol.for('giftcard.provider-registry');
const slot = globalThis as typeof globalThis & { [KEY]?: Registry };
slot[KEY] ??= { providers: { test: sandboxProvider, live: undefined }, events: undefined };
const registry: Registry = slot[KEY];

/** Plugs a provider in for a mode (live has none until the composition root registers one); undefined unplugs it. */
export function plugProvider(mode: Mode, provider: PaymentProvider | undefined): void {
  registry.providers[mode] = provider;
}

/** The mode's provider when it can be used now: registered, and configured. */
export function providerFor(mode: Mode): PaymentProvider | undefined {
  const provider = registry.providers[mode];
  return provider?.settings() ? provider : undefined;
}

/** The mode's provider whether or not it can be used now: its records of what it did stay readable without its key (they answer what they can). */
export const registeredProvider = (mode: Mode): PaymentProvider | undefined => registry.providers[mode];

/** The receiver of the provider named so (its routes' name), configured or not: it answers for itself when it cannot take a call. */
export function inboundOf(name: string): ProviderInbound | undefined {
  return Object.values(registry.providers).find((p) => p?.name === name)?.inbound;
}

export function plugProviderEvents(events: ProviderEvents): void {
  registry.events = events;
}

/** Where adapters report; registered at start with the domain's functions. */
export function providerEvents(): ProviderEvents {
  if (!registry.events) throw new Error('No provider events are registered: the composition root (lib/wire-providers.ts) registers them at start.');
  return registry.events;
}

export const bankRailFor = (mode: Mode): BankRail | undefined => providerFor(mode)?.payouts;

function walletRailFor(mode: Mode): WalletRail {
  const rail = providerFor(mode)?.walletCharges;
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
