import { eq } from 'drizzle-orm';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { businesses } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { parseInput } from '../validation';
import { type BusinessLocale, businessLocaleSchema } from './business-locale.validation';

/** The business's settings as the back office and the owner see them. */
export interface BusinessLocaleSettings extends BusinessLocale {
  id: number;
  time_zone: string;
  country: string;
}

const columns = {
  id: businesses.id,
  time_zone: businesses.timeZone,
  country: businesses.country,
  customer_language: businesses.customerLanguage,
  calendar: businesses.calendar,
};

export async function getBusinessLocale(db: Db, businessId: number): Promise<BusinessLocaleSettings> {
  const [row] = await db.select(columns).from(businesses).where(eq(businesses.id, businessId));
  if (!row) throw new ServiceError('not_found', 'No such business.');
  return row;
}

/**
 * The language the business's hosted checkout speaks to its customers and the calendar it shows them dates in.
 * Display only: the API and CSV exports keep ISO 8601 dates and English names whatever is chosen.
 */
export async function setBusinessLocale(db: Db, businessId: number, actor: Actor, input: unknown): Promise<BusinessLocaleSettings> {
  const next = parseInput(businessLocaleSchema, input);
  return inTransaction(db, async (tx) => {
    const [before] = await tx.select(columns).from(businesses).where(eq(businesses.id, businessId)).for('update');
    if (!before) throw new ServiceError('not_found', 'No such business.');
    if (before.customer_language === next.customer_language && before.calendar === next.calendar) return before;
    await tx.update(businesses).set({ customerLanguage: next.customer_language, calendar: next.calendar }).where(eq(businesses.id, businessId));
    await recordAudit(tx, {
      businessId,
      mode: null,
      actor,
      action: 'business.settings_changed',
      details: {
        from: { customer_language: before.customer_language, calendar: before.calendar },
        to: next,
      },
    });
    return { ...before, ...next };
  });
}
