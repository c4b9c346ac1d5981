import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, DbOrTx } from '../db/client';
import { businesses, feeRules } from '../db/schema';
import { MAX_AMOUNT, modeSchema, parseInput, type Mode } from '../validation';

const FEE_KINDS = ['card_to_card', 'b2b', 'bank', 'payment', 'redemption'] as const;
export type FeeKind = (typeof FEE_KINDS)[number];

export interface FeeRule {
  percentScaled: number;
  fixed: number;
  min: number | null;
  max: number | null;
}

const PERCENT_SCALE = 10_000;

/** "1.5" or 1.5 to 15000, exactly: the percent never passes through float arithmetic. */
export function parsePercent(value: number | string): number | null {
  const text = typeof value === 'number' ? String(value) : value.trim();
  const m = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(text);
  if (!m) return null;
  const scaled = Number(m[1]) * PERCENT_SCALE + Number((m[2] ?? '').padEnd(4, '0'));
  return scaled <= 100 * PERCENT_SCALE ? scaled : null;
}

function formatPercent(scaled: number): string {
  const whole = Math.floor(scaled / PERCENT_SCALE);
  const frac = String(scaled % PERCENT_SCALE)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

/** round_half_up(amount * percent / 100) + fixed, clamped to min and max; integers throughout. */
export function computeFee(rule: FeeRule | undefined, amount: number): number {
  if (!rule) return 0;
  const scaledProduct = BigInt(amount) * BigInt(rule.percentScaled);
  const divisor = BigInt(100 * PERCENT_SCALE);
  let fee = Number((scaledProduct + divisor / 2n) / divisor) + rule.fixed;
  if (rule.min !== null && fee < rule.min) fee = rule.min;
  if (rule.max !== null && fee > rule.max) fee = rule.max;
  return fee;
}

/**
 * True in SQL while the fee rule of business `businessId`, mode `mode` and
 * kind `feeKind` (placeholders) still has the terms `feeSignature`: a
 * statement that charges a fee read earlier refuses when the schedule changed
 * meanwhile.
 */
export function feeRuleUnchanged(kind: SQL = sql`${sql.placeholder('feeKind')}`, signature: SQL = sql`${sql.placeholder('feeSignature')}`): SQL {
  return sql`coalesce((SELECT concat(percent_scaled, ':', fixed, ':', min, ':', max) FROM fee_rules
    WHERE business_id = ${sql.placeholder('businessId')} AND mode = ${sql.placeholder('mode')} AND applies_to = ${kind}), '') = ${signature}`;
}

/** What feeRuleUnchanged compares: the rule's terms as one string, empty for no rule. */
export function feeSignature(rule: FeeRule | undefined): string {
  return rule ? `${rule.percentScaled}:${rule.fixed}:${rule.min ?? ''}:${rule.max ?? ''}` : '';
}

async function feeRuleFor(db: DbOrTx, businessId: number, mode: Mode, kind: FeeKind): Promise<FeeRule | undefined> {
  const [row] = await db
    .select({ percentScaled: feeRules.percentScaled, fixed: feeRules.fixed, min: feeRules.min, max: feeRules.max })
    .from(feeRules)
    .where(and(eq(feeRules.businessId, businessId), eq(feeRules.mode, mode), eq(feeRules.appliesTo, kind)));
  return row;
}

/** One mode's fee schedule as the Settings page shows it: a rule per kind that has one, percent as written ("1.5"). */
export async function getFeeSchedule(db: DbOrTx, businessId: number, mode: Mode) {
  const rows = await db
    .select({ kind: feeRules.appliesTo, percentScaled: feeRules.percentScaled, fixed: feeRules.fixed, min: feeRules.min, max: feeRules.max })
    .from(feeRules)
    .where(and(eq(feeRules.businessId, businessId), eq(feeRules.mode, mode)));
  return FEE_KINDS.flatMap((kind) => {
    const r = rows.find((row) => row.kind === kind);
    return r ? [{ kind, percent: formatPercent(r.percentScaled), fixed: r.fixed, min: r.min, max: r.max }] : [];
  });
}

export async function serviceFee(db: DbOrTx, businessId: number, mode: Mode, kind: FeeKind, amount: number): Promise<number> {
  return computeFee(await feeRuleFor(db, businessId, mode, kind), amount);
}

const feeAmount = (field: string) =>
  z
    .number({ error: `${field} must be an integer number of minor units.` })
    .int({ error: `${field} must be an integer.` })
    .min(0, { error: `${field} must not be negative.` })
    .max(MAX_AMOUNT, { error: `${field} is too large.` });

export const feeScheduleSchema = z.object({
  mode: modeSchema,
  rules: z
    .array(
      z
        .object({
          applies_to: z.enum(FEE_KINDS, { error: `applies_to must be one of ${FEE_KINDS.join(', ')}.` }),
          percent: z.union([z.number(), z.string()], { error: 'percent must be a number from 0 to 100.' }).default(0),
          fixed: feeAmount('fixed').default(0),
          min: feeAmount('min').optional(),
          max: feeAmount('max').optional(),
        })
        .refine((r) => parsePercent(r.percent) !== null, { error: 'percent must be a number from 0 to 100 with at most four decimals.', path: ['percent'] })
        .refine((r) => r.min === undefined || r.max === undefined || r.min <= r.max, { error: 'min must not exceed max.', path: ['min'] }),
      { error: 'rules must be an array.' },
    )
    .max(FEE_KINDS.length)
    .refine((rules) => new Set(rules.map((r) => r.applies_to)).size === rules.length, { error: 'Each applies_to may appear once.' }),
});

/** Replaces one mode's whole fee schedule. */
export async function setFeeSchedule(db: Db, businessId: number, input: unknown) {
  const { mode, rules } = parseInput(feeScheduleSchema, input);
  const rows = rules.map((r) => ({
    businessId,
    mode,
    appliesTo: r.applies_to,
    percentScaled: parsePercent(r.percent)!,
    fixed: r.fixed,
    min: r.min ?? null,
    max: r.max ?? null,
  }));
  await db.transaction(async (tx) => {
    // Two concurrent replacements would both delete nothing and then collide on insert: serialise per business.
    await tx.select({ id: businesses.id }).from(businesses).where(eq(businesses.id, businessId)).for('update');
    await tx.delete(feeRules).where(and(eq(feeRules.businessId, businessId), eq(feeRules.mode, mode)));
    if (rows.length) await tx.insert(feeRules).values(rows);
  });
  return {
    mode,
    rules: rows.map((r) => ({
      applies_to: r.appliesTo,
      percent: formatPercent(r.percentScaled),
      fixed: r.fixed,
      ...(r.min !== null && { min: r.min }),
      ...(r.max !== null && { max: r.max }),
    })),
  };
}
