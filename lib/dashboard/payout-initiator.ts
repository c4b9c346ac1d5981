import { and, eq } from 'drizzle-orm';
import type { ActorType } from '../actor';
import type { DbOrTx } from '../db/client';
import { apiKeys, users } from '../db/schema';

export interface PayoutInitiatorOptions {
  businessId: number;
  actorType: string;
  actorId: string | null;
}

/** Who started a payout, as data the page words in the reader's language. */
export type PayoutInitiator =
  | { kind: 'user'; email: string }
  | { kind: 'removed_user' }
  | { kind: 'api_key'; name: string | null; shown: string }
  | { kind: 'unknown_key' }
  | { kind: 'admin' }
  | { kind: 'system' };

/**
 * Who started a payout, for the business's staff: the teammate's email, the API key by name with its prefix and
 * last four, the provider, or the service. Users and keys are looked up in this business only, so an id never
 * names anyone elsewhere; a teammate removed since reads as such.
 */
export async function payoutInitiator(db: DbOrTx, opts: PayoutInitiatorOptions): Promise<PayoutInitiator> {
  const id = opts.actorId !== null && /^\d{1,15}$/.test(opts.actorId) ? Number(opts.actorId) : null;
  switch (opts.actorType as ActorType) {
    case 'user': {
      const [user] =
        id === null
          ? []
          : await db
              .select({ email: users.email })
              .from(users)
              .where(and(eq(users.id, id), eq(users.businessId, opts.businessId)));
      return user ? { kind: 'user', email: user.email } : { kind: 'removed_user' };
    }
    case 'api_key': {
      const [key] =
        id === null
          ? []
          : await db
              .select({ name: apiKeys.name, prefix: apiKeys.prefix, lastFour: apiKeys.lastFour })
              .from(apiKeys)
              .where(and(eq(apiKeys.id, id), eq(apiKeys.businessId, opts.businessId)));
      if (!key) return { kind: 'unknown_key' };
      return { kind: 'api_key', name: key.name || null, shown: `${key.prefix}…${key.lastFour ?? ''}` };
    }
    case 'admin':
      return { kind: 'admin' };
    default:
      return { kind: 'system' };
  }
}
