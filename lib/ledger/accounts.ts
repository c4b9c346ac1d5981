import { and, eq, is } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from '../db/client';
import { ledgerAccounts } from '../db/schema';
import type { Currency, Mode } from '../validation';

type AccountKind = 'card' | 'business' | 'fee_revenue' | 'clearing' | 'held' | 'breakage';
export type ClearingRail = 'bank' | 'wallet' | 'checkout' | 'deposits' | 'refunds:checkout' | 'refunds:wallet';

interface AccountSpec {
  kind: AccountKind;
  name: string;
  mode: Mode;
  currency: Currency;
  businessId?: number;
  allowNegative?: boolean;
}

// Shared accounts are never deleted, so their ids can be remembered per process.
const cache = new Map<string, number>();

/**
 * Finds or creates a shared account in its own statement, outside any money
 * transaction, so a rolled-back movement can never leave a cached id behind.
 */
async function ensureAccount(db: Db, spec: AccountSpec): Promise<number> {
  const key = `${spec.mode}|${spec.currency}|${spec.name}`;
  const hit = cache.get(key);
  if (hit) return hit;
  await db
    .insert(ledgerAccounts)
    .values({
      kind: spec.kind,
      name: spec.name,
      mode: spec.mode,
      currency: spec.currency,
      businessId: spec.businessId ?? null,
      allowNegative: spec.allowNegative ?? false,
    })
    .onConflictDoNothing();
  const [row] = await db
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(and(eq(ledgerAccounts.mode, spec.mode), eq(ledgerAccounts.currency, spec.currency), eq(ledgerAccounts.name, spec.name)));
  // Found or made inside a caller's transaction, it is remembered only if that commits: so not at all.
  if (!is(db, PgTransaction)) cache.set(key, row.id);
  return row.id;
}

export const businessAccountId = (db: Db, businessId: number, mode: Mode, currency: Currency) =>
  ensureAccount(db, { kind: 'business', name: `business:${businessId}`, businessId, mode, currency });

const FEE_REVENUE = 'provider:fee-revenue';
const FEE_REVENUE_SHARDS = 8;

/**
 * The provider's fee revenue, split over a few accounts (summed by kind for
 * reporting): every fee-paying movement of a currency locks one of them, and a
 * single account would make all of them wait on each other. A batch names one
 * `shard` for all its items, so it holds one of them, not all, until it commits.
 */
export const feeRevenueAccountId = (db: Db, mode: Mode, currency: Currency, shard = randomFeeShard()) =>
  ensureAccount(db, { kind: 'fee_revenue', name: `${FEE_REVENUE}#${shard % FEE_REVENUE_SHARDS}`, mode, currency });

export const randomFeeShard = () => Math.floor(Math.random() * FEE_REVENUE_SHARDS);

/** The business's money set aside by holds (lib/holds/): never below zero, since every release follows its hold. */
export const heldAccountId = (db: Db, businessId: number, mode: Mode, currency: Currency) =>
  ensureAccount(db, { kind: 'held', name: `held:${businessId}`, businessId, mode, currency });

/** What the business's expired cards held when they expired (lib/cards/expire-cards.ts): breakage recognised, never spent from a card again. */
export const breakageAccountId = (db: Db, businessId: number, mode: Mode, currency: Currency) =>
  ensureAccount(db, { kind: 'breakage', name: `breakage:${businessId}`, businessId, mode, currency });

/**
 * Forgets every remembered shared account id: for a caller whose own database
 * transaction rolled back after creating one (an approval runs a payout inside
 * its transaction), so no id of a row that never committed is used again.
 */
export function forgetSharedAccounts(): void {
  cache.clear();
}

/** Money in flight to or from an outside rail; it may go negative, the rail settles it. */
export const clearingAccountId = (db: Db, rail: ClearingRail, mode: Mode, currency: Currency) =>
  ensureAccount(db, { kind: 'clearing', name: `clearing:${rail}`, mode, currency, allowNegative: true });

/** A card's own account, created inside the card's creating transaction. */
export async function createCardAccount(tx: DbOrTx, opts: { businessId: number; mode: Mode; currency: Currency; cardNumber: string }) {
  const [row] = await tx
    .insert(ledgerAccounts)
    .values({ kind: 'card', name: `card:${opts.cardNumber}`, businessId: opts.businessId, mode: opts.mode, currency: opts.currency })
    .returning({ id: ledgerAccounts.id });
  return row.id;
}
