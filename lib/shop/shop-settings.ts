import { isLocale, type Locale } from '../i18n/locale';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db/client';
import { businesses, shops } from '../db/schema';
import { inTransaction, pgConstraint } from '../db/transaction';
import { ServiceError } from '../errors';
import { amountSchema, currencySchema, modeSchema, parseInput, type Currency, type Mode } from '../validation';

const SLUG_PATTERN = /^[a-z0-9-]{3,40}$/;
const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;
const HEADLINE_MAX = 120;

export const shopSettingsSchema = z
  .object({
    enabled: z.boolean({ error: 'enabled must be true or false.' }),
    mode: modeSchema,
    slug: z
      .string({ error: (iss) => (iss.input === undefined ? 'slug is required.' : 'slug must be a string.') })
      .regex(SLUG_PATTERN, { error: 'slug must be 3 to 40 lowercase letters, digits or dashes.' }),
    currency: currencySchema,
    preset_amounts: z.array(amountSchema, { error: 'preset_amounts must be a list of amounts in minor units.' }).max(8, {
      error: 'preset_amounts may hold at most 8 amounts.',
    }),
    min_amount: amountSchema,
    max_amount: amountSchema,
    headline: z
      .string({ error: 'headline must be a string.' })
      .trim()
      .max(HEADLINE_MAX, { error: `headline must be at most ${HEADLINE_MAX} characters.` })
      .nullish(),
    color: z.string({ error: 'color must be a string.' }).regex(COLOR_PATTERN, { error: 'color must be a hex colour like #0f766e.' }).nullish(),
  })
  .superRefine((s, ctx) => {
    if (s.max_amount < s.min_amount) ctx.addIssue({ code: 'custom', path: ['max_amount'], message: 'max_amount must be at least min_amount.' });
    if (s.preset_amounts.some((a) => a < s.min_amount || a > s.max_amount)) {
      ctx.addIssue({ code: 'custom', path: ['preset_amounts'], message: 'Every preset amount must lie between min_amount and max_amount.' });
    }
  });

/** The shop as the back office and the settings page read it: the same keys it is set with. */
export interface ShopView {
  enabled: boolean;
  mode: Mode;
  slug: string;
  currency: Currency;
  preset_amounts: number[];
  min_amount: number;
  max_amount: number;
  headline: string | null;
  color: string | null;
}

type ShopRow = typeof shops.$inferSelect;

const toShopView = (s: ShopRow): ShopView => ({
  enabled: s.enabled,
  mode: s.mode,
  slug: s.slug,
  currency: s.currency,
  preset_amounts: s.presetAmounts.map(Number),
  min_amount: s.minAmount,
  max_amount: s.maxAmount,
  headline: s.headline,
  color: s.color,
});

export async function getShop(db: DbOrTx, businessId: number): Promise<ShopView | null> {
  const [row] = await db.select().from(shops).where(eq(shops.businessId, businessId));
  return row ? toShopView(row) : null;
}

/** A shop that sells: found by its slug and switched on. A shop that is off reads as one that does not exist. */
export interface OpenShop extends ShopView {
  businessId: number;
  businessName: string;
  /** What the shop speaks unless its reader asks otherwise (`?lang`), as the checkout and the card page do. */
  customerLanguage: Locale;
}

export async function openShop(db: DbOrTx, slug: string): Promise<OpenShop> {
  const shop = SLUG_PATTERN.test(slug) ? (await db.select().from(shops).where(eq(shops.slug, slug)))[0] : undefined;
  if (!shop?.enabled) throw shopNotFound();
  const [business] = await db
    .select({ name: businesses.name, customerLanguage: businesses.customerLanguage })
    .from(businesses)
    .where(eq(businesses.id, shop.businessId));
  return {
    ...toShopView(shop),
    businessId: shop.businessId,
    businessName: business?.name ?? '',
    customerLanguage: isLocale(business?.customerLanguage) ? business.customerLanguage : 'en',
  };
}

export async function shopBusinessName(db: DbOrTx, businessId: number): Promise<string> {
  const [business] = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, businessId));
  return business?.name ?? '';
}

const shopNotFound = () => new ServiceError('not_found', 'No shop is open at this address.');

/** Sets the business's shop (creating it the first time); a slug another shop has is 409. */
export async function setShop(db: Db, opts: { businessId: number; actor: Actor; input: unknown }): Promise<ShopView> {
  const input = parseInput(shopSettingsSchema, opts.input);
  const values = {
    enabled: input.enabled,
    mode: input.mode,
    slug: input.slug,
    currency: input.currency,
    presetAmounts: [...new Set(input.preset_amounts)].sort((a, b) => a - b),
    minAmount: input.min_amount,
    maxAmount: input.max_amount,
    headline: input.headline || null,
    color: input.color ?? null,
  };
  try {
    return await inTransaction(db, async (tx) => {
      const [row] = await tx
        .insert(shops)
        .values({ businessId: opts.businessId, ...values })
        .onConflictDoUpdate({ target: shops.businessId, set: { ...values, updatedAt: new Date() } })
        .returning();
      await recordAudit(tx, {
        businessId: opts.businessId,
        mode: input.mode,
        actor: opts.actor,
        action: 'shop.updated',
        target: input.slug,
        details: { enabled: input.enabled },
      });
      return toShopView(row);
    });
  } catch (err) {
    if (pgConstraint(err) === 'shops_slug_idx') throw new ServiceError('already_exists', { slug: 'Another shop already has this slug.' });
    throw err;
  }
}
