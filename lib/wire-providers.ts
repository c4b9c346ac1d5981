import type { Stop } from './background-loop';
import type { Db } from './db/client';
import { requestLiveVerify } from './payments/verify-live-payment';
import { settlePayout } from './payouts/settle-payout';
import { plugProvider, plugProviderEvents } from './providers/provider-registry';
import { chapaProvider } from './rails/chapa/chapa-provider';
import { startRailRequests } from './rails/chapa/rail-requests';

/**
 * The composition root's wiring of providers: Chapa for live mode (it answers
 * only while CHAPA_SECRET_KEY is set) and the domain's functions for what
 * adapters report. Test mode's sandbox needs none. Called by the standalone
 * process (scripts/start.ts) and by Next.js's instrumentation hook, so route
 * handlers and background loops see the same registry.
 */
export function registerProviders(): void {
  plugProvider('live', chapaProvider);
  plugProviderEvents({
    async transferSettled(db, settled) {
      await settlePayout(db, settled);
    },
    paymentReported: (db, linkReference) => requestLiveVerify(db, linkReference),
  });
}

/** The providers' own background workers, by the name BACKGROUND_TASKS knows each by (lib/background.ts): Chapa's outbox of transfer requests. */
export const PROVIDER_TASKS: Record<string, (db: Db) => Stop> = {
  'rail-requests': startRailRequests,
};
