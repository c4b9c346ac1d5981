'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { type BusinessPreferences, BusinessPreferencesProvider } from './business-preferences';
import { getQueryClient } from './query-client';

/** The dashboard's client-side context: one QueryClient per browser session and the business's preferences. */
export function DashboardProviders({ preferences, children }: { preferences: BusinessPreferences; children: ReactNode }) {
  return (
    <QueryClientProvider client={getQueryClient()}>
      <BusinessPreferencesProvider value={preferences}>{children}</BusinessPreferencesProvider>
    </QueryClientProvider>
  );
}
