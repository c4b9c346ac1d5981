import { and, asc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { businesses, businessLimits } from '../db/schema';
import { CURRENCIES, currencySchema, MAX_AMOUNT, MIN_AMOUNT, modeSchema, parseInput, type Currency, type Mode } from '../validation';
import { LIMIT_NAMES, type LimitName } from './limit-refusal';

/** A limit in minor units, or null for none; omitted is none too (PUT replaces the currency's set). */
const limitSchema = (field: LimitName | 'spend_code_over') => {
  const error = `${field} must be an integer number of minor units from ${MIN_AMOUNT} to ${MAX_AMOUNT}, or null for no limit.`;
  return z.number({ error }).int({ error }).min(MIN_AMOUNT, { error }).max(MAX_AMOUNT, { error }).nullable().optional();
};

export const limitsSchema = z.object({
  mode: modeSchema.optional(),
  currency: currencySchema,
  max_payout: limitSchema('max_payout'),
  daily_payout: limitSchema('daily_payout'),
  max_card_balance: limitSchema('max_card_balance'),
  /** Not a refusal: redemptions and captures of more than this wait for the cardholder's SMS code (lib/spend-codes/). */
  spend_code_over: limitSchema('spend_code_over'),
});

export type CurrencyLimits = { currency: Currency } & Record<LimitName | 'spend_code_over', number | null>;

/** A business's limits in one mode, one entry per currency (null where none is set). */
export async function getLimits(db: Db, businessId: number, mode: Mode): Promise<CurrencyLimits[]> {
  const rows = await db
    .select()
    .from(businessLimits)
    .where(and(eq(businessLimits.businessId, businessId), eq(businessLimits.mode, mode)))
    .orderBy(asc(businessLimits.currency));
  return CURRENCIES.map((currency) => {
    const row = rows.find((r) => r.currency === currency);
    return {
      currency,
      max_payout: row?.maxPayout ?? null,
      daily_payout: row?.dailyPayout ?? null,
      max_card_balance: row?.maxCardBalance ?? null,
      spend_code_over: row?.spendCodeOver ?? null,
    };
  });
}

export interface SetLimitsOptions {
  businessId: number;
  actor: Actor;
  /** The mode when the input names none (the back office: live, the money the limits are for; the dashboard: its switch). */
  defaultMode: Mode;
  input: unknown;
}

/**
 * Replaces a business's limits for one mode and currency. A daily limit set
 * where there was none starts today's total from today's payouts (failed
 * ones left out), so payouts made earlier in the business day count.
 */
export async function setLimits(db: Db, opts: SetLimitsOptions): Promise<CurrencyLimits & { mode: Mode }> {
  const input = parseInput(limitsSchema, opts.input);
  const mode = input.mode ?? opts.defaultMode;
  const limits: CurrencyLimits = {
    currency: input.currency,
    max_payout: input.max_payout ?? null,
    daily_payout: input.daily_payout ?? null,
    max_card_balance: input.max_card_balance ?? null,
    spend_code_over: input.spend_code_over ?? null,
  };
  await db.transaction(async (tx) => {
    const key = and(eq(businessLimits.businessId, opts.businessId), eq(businessLimits.mode, mode), eq(businessLimits.currency, limits.currency));
    const [before] = await tx.select().from(businessLimits).where(key).for('update');
    const values = {
      maxPayout: limits.max_payout,
      dailyPayout: limits.daily_payout,
      maxCardBalance: limits.max_card_balance,
      spendCodeOver: limits.spend_code_over,
      updatedAt: new Date(),
    };
    await tx
      .insert(businessLimits)
      .values({ businessId: opts.businessId, mode, currency: limits.currency, ...values })
      .onConflictDoUpdate({ target: [businessLimits.businessId, businessLimits.mode, businessLimits.currency], set: values });
    if (limits.daily_payout !== null && (before?.dailyPayout ?? null) === null) {
      await tx.execute(sql`
        WITH today AS (SELECT (now() AT TIME ZONE time_zone)::date AS day, time_zone FROM ${businesses} WHERE id = ${opts.businessId})
        INSERT INTO payout_day_totals (business_id, mode, currency, day, total)
        SELECT ${opts.businessId}, ${mode}, ${limits.currency}, today.day,
               (SELECT coalesce(sum(amount), 0) FROM payouts WHERE business_id = ${opts.businessId} AND mode = ${mode}
                  AND currency = ${limits.currency} AND NOT is_ledger_topup AND status <> 'failed'
                  AND created_at >= (today.day::timestamp AT TIME ZONE today.time_zone))
        FROM today
        ON CONFLICT (business_id, mode, currency, day) DO UPDATE SET total = EXCLUDED.total`);
    }
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode,
      actor: opts.actor,
      action: 'business.limits_changed',
      target: limits.currency,
      details: { mode, currency: limits.currency, ...Object.fromEntries(LIMIT_NAMES.map((n) => [n, limits[n]])), spend_code_over: limits.spend_code_over },
    });
  });
  return { mode, ...limits };
}
