import { eq } from 'drizzle-orm';
import { isSupportedCountry } from 'libphonenumber-js';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import { isTimeZone } from '../time-zone';
import type { Db } from '../db/client';
import { businesses } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';

export interface BusinessSettings {
  timeZone: string;
  country: string;
}

export async function getBusinessSettings(db: Db, businessId: number): Promise<BusinessSettings> {
  const [row] = await db.select({ timeZone: businesses.timeZone, country: businesses.country }).from(businesses).where(eq(businesses.id, businessId));
  if (!row) throw new ServiceError('not_found', 'No such business.');
  return row;
}

/**
 * The owner's choice of time zone (every date the dashboard shows, filters and
 * exports) and country (how national phone numbers typed in forms are read).
 */
export async function updateBusinessSettings(db: Db, businessId: number, actor: Actor, next: BusinessSettings): Promise<BusinessSettings> {
  if (!isTimeZone(next.timeZone)) throw new ServiceError('validation_error', { time_zone: 'Choose a time zone from the list.' });
  if (!isSupportedCountry(next.country)) throw new ServiceError('validation_error', { country: 'Choose a country from the list.' });
  return inTransaction(db, async (tx) => {
    const [before] = await tx
      .select({ timeZone: businesses.timeZone, country: businesses.country })
      .from(businesses)
      .where(eq(businesses.id, businessId))
      .for('update');
    if (!before) throw new ServiceError('not_found', 'No such business.');
    if (before.timeZone === next.timeZone && before.country === next.country) return before;
    await tx.update(businesses).set(next).where(eq(businesses.id, businessId));
    await recordAudit(tx, {
      businessId,
      mode: null,
      actor,
      action: 'business.settings_changed',
      details: { from: { time_zone: before.timeZone, country: before.country }, to: { time_zone: next.timeZone, country: next.country } },
    });
    return next;
  });
}
