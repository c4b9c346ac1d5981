'use client';

import { createContext, type ReactNode, useContext } from 'react';
import type { CalendarChoice } from '@/lib/i18n/locale';

export interface BusinessPreferences {
  /** IANA zone every date is shown and filtered in, e.g. Africa/Addis_Ababa. */
  timeZone: string;
  /** ISO 3166 alpha-2 country whose national phone numbers the forms accept. */
  country: string;
  /** The reader's own calendar for every date shown (absent: Gregorian). */
  calendar?: CalendarChoice;
}

const DEFAULTS: BusinessPreferences = { timeZone: 'Africa/Addis_Ababa', country: 'ET' };
const Context = createContext<BusinessPreferences>(DEFAULTS);

export function BusinessPreferencesProvider({ value, children }: { value: BusinessPreferences; children: ReactNode }) {
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export const useBusinessPreferences = () => useContext(Context);
