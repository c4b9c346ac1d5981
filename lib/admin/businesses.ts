import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../db/client';
import { businesses } from '../db/schema';
import { ServiceError } from '../errors';
import { randomBase62 } from '../ids';
import { createUser } from '../auth/users';
import { apiKeyNameSchema, BACK_OFFICE_KEY_NAME } from '../keys/api-key-name';
import { issueApiKey } from '../keys/api-keys';
import { scopesSchema } from '../keys/key-scopes';
import { pageCount, type PageRequest } from '../pagination';
import { likeEscape } from '../dashboard/search-cards';
import { modeSchema, parseInput, withoutControlCharacters } from '../validation';
import { ensureDashboardEndpoint } from '../webhooks/endpoints';

export const createBusinessSchema = z.object({
  name: z.string({ error: 'name is required.' }).trim().min(1, { error: 'name must not be empty.' }).max(200),
  owner_email: z.string().optional(),
  owner_password: z.string().optional(),
});

/** A new business with one test and one live key (shown only here) and, when asked, its owner's account. */
export async function createBusiness(db: Db, input: unknown) {
  const { name, owner_email, owner_password } = parseInput(createBusinessSchema, input);
  if ((owner_email === undefined) !== (owner_password === undefined)) {
    throw new ServiceError('validation_error', {
      [owner_email === undefined ? 'owner_email' : 'owner_password']: 'owner_email and owner_password go together.',
    });
  }
  return db.transaction(async (tx) => {
    const [business] = await tx
      .insert(businesses)
      .values({ name, merchantId: `mer_${randomBase62(16)}` })
      .returning();
    const test = await issueApiKey(tx, { businessId: business.id, mode: 'test', name: BACK_OFFICE_KEY_NAME });
    const live = await issueApiKey(tx, { businessId: business.id, mode: 'live', name: BACK_OFFICE_KEY_NAME });
    for (const mode of ['test', 'live'] as const) await ensureDashboardEndpoint(tx, business.id, mode);
    const owner = owner_email ? await createUser(tx, business.id, { email: owner_email, password: owner_password, role: 'owner' }) : undefined;
    return {
      id: business.id,
      merchant_id: business.merchantId,
      name: business.name,
      api_keys: { test: test.key, live: live.key },
      ...(owner && { owner: { id: owner.id, email: owner.email } }),
    };
  });
}

export async function requireBusiness(db: Db, idParam: string) {
  const id = /^\d{1,9}$/.test(idParam) ? Number(idParam) : NaN;
  const [row] = Number.isNaN(id) ? [] : await db.select().from(businesses).where(eq(businesses.id, id));
  if (!row) throw new ServiceError('not_found', 'No business has this id.');
  return row;
}

export const issueKeySchema = z.object({
  mode: modeSchema,
  active: z.boolean({ error: 'active must be true or false.' }).optional(),
  gift_cards_enabled: z.boolean({ error: 'gift_cards_enabled must be true or false.' }).optional(),
  name: apiKeyNameSchema.optional(),
  scopes: scopesSchema.optional(),
});

export async function issueBusinessKey(db: Db, businessId: number, input: unknown) {
  const { mode, active, gift_cards_enabled, name = BACK_OFFICE_KEY_NAME, scopes } = parseInput(issueKeySchema, input);
  const issued = await issueApiKey(db, { businessId, mode, name, active, giftCardsEnabled: gift_cards_enabled, scopes });
  return { key: issued.key, name, mode, active: issued.active, gift_cards_enabled: issued.gift_cards_enabled, scopes: issued.scopes };
}

export interface ListBusinessesOptions {
  /** A merchant id (exact), or any part of the business's name (case ignored). */
  search?: string;
  page: PageRequest;
}

const searchSchema = z.object({ search: z.string().max(200, { error: 'search must be at most 200 characters.' }).optional() });

/** The back office's list of businesses, newest first, so an operator can find a business's id from its name or merchant id. */
export async function listBusinesses(db: Db, opts: ListBusinessesOptions) {
  const search = withoutControlCharacters(parseInput(searchSchema, { search: opts.search }).search ?? '').trim();
  const like = `%${likeEscape(search.toLowerCase())}%`;
  const where = search ? sql`(b.merchant_id = ${search} OR lower(b.name) LIKE ${like})` : sql`true`;
  const [{ rows }, { rows: count }] = await Promise.all([
    db.execute<{ id: number; merchant_id: string; name: string; time_zone: string; country: string; created_at: Date }>(sql`
      SELECT b.id, b.merchant_id, b.name, b.time_zone, b.country, b.created_at FROM businesses b
      WHERE ${where} ORDER BY b.id DESC LIMIT ${opts.page.limit} OFFSET ${opts.page.offset}`),
    db.execute<{ n: number }>(sql`SELECT count(*)::bigint AS n FROM businesses b WHERE ${where}`),
  ]);
  const total = Number(count[0].n);
  return {
    items: rows.map((r) => ({
      id: Number(r.id),
      merchant_id: r.merchant_id,
      name: r.name,
      time_zone: r.time_zone,
      country: r.country,
      created_at: new Date(r.created_at).toISOString(),
    })),
    total,
    page: opts.page.page,
    limit: opts.page.limit,
    pages: pageCount(total, opts.page.limit),
  };
}
