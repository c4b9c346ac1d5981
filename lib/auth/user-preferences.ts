import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { users } from '../db/schema';
import { ServiceError } from '../errors';
import type { CalendarChoice, Locale } from '../i18n/locale';

/** How a person reads the dashboard: their language (null follows their browser) and calendar. */
export interface UserPreferences {
  language: Locale | null;
  calendar: CalendarChoice;
}

/** The signed-in person's own choice, made in Account; it is theirs alone, so no one else's session changes. */
export async function updateUserPreferences(db: Db, who: { userId: number; businessId: number }, next: UserPreferences): Promise<UserPreferences> {
  const [row] = await db
    .update(users)
    .set({ language: next.language, calendar: next.calendar })
    .where(and(eq(users.id, who.userId), eq(users.businessId, who.businessId)))
    .returning({ language: users.language, calendar: users.calendar });
  if (!row) throw new ServiceError('not_found', 'No such user.');
  return row;
}
