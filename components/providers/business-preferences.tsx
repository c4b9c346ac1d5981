'use client';

import { createContext, type ReactNode, useContext } from 'react';

export interface BusinessPreferences {
  /** IANA zone every date is shown and filtered in, e.g. Africa/Addis_Ababa. */
  timeZone: string;
  /** ISO 3166 alpha-2 country whose national phone numbers the forms accept. */
  country: string;
}

const DEFAULTS: BusinessPreferences = { timeZone: 'Africa/Addis_Ababa', country: 'ET' };
const Context = createContext<BusinessPreferences>(DEFAULTS);

export function BusinessPreferencesProvider({ value, children }: { value: BusinessPreferences; children: ReactNode }) {
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export const useBusinessPreferences = () => useContext(Context);
