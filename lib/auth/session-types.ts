import type { Actor } from '../actor';
import type { CalendarChoice, Locale } from '../i18n/locale';
import type { Mode } from '../validation';
import type { Role } from './users';

export interface DashboardSession {
  userId: number;
  email: string;
  businessId: number;
  role: Role;
  mode: Mode;
  /** The business's IANA zone, for every date shown, filtered and exported. */
  timeZone: string;
  /** The business's country, for national phone numbers typed in forms. */
  country: string;
  /** The language the person chose in Account; null or absent follows their browser. */
  language?: Locale | null;
  /** The calendar the person reads dates in; absent is Gregorian. */
  calendar?: CalendarChoice;
  actor: Actor;
  /** The branch the person works at (Team); a cashier's till money is recorded there. */
  locationId?: number | null;
  /** The business requires two-factor sign-in and this user has not turned it on: only its set-up is open to them. */
  mustSetUpTwoFactor?: boolean;
}
