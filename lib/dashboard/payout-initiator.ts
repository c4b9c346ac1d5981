import { and, eq } from 'drizzle-orm';
import type { ActorType } from '../actor';
import type { DbOrTx } from '../db/client';
import { apiKeys, users } from '../db/schema';

export interface PayoutInitiatorOptions {
  businessId: number;
  actorType: string;
  actorId: string | null;
}

/**
 * Who started a payout, in words for the business's staff: the teammate's email, the API key by name with its
 * prefix and last four, the provider, or the service. Users and keys are looked up in this business only, so an
 * id never names anyone elsewhere; a teammate removed since reads as such.
 */
export async function payoutInitiator(db: DbOrTx, opts: PayoutInitiatorOptions): Promise<string> {
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
      return user ? user.email : 'A team member since removed';
    }
    case 'api_key': {
      const [key] =
        id === null
          ? []
          : await db
              .select({ name: apiKeys.name, prefix: apiKeys.prefix, lastFour: apiKeys.lastFour })
              .from(apiKeys)
              .where(and(eq(apiKeys.id, id), eq(apiKeys.businessId, opts.businessId)));
      if (!key) return 'An API key';
      const shown = `${key.prefix}…${key.lastFour ?? ''}`;
      return key.name ? `API key “${key.name}” (${shown})` : `API key ${shown}`;
    }
    case 'admin':
      return 'The provider';
    default:
      return 'The service';
  }
}
