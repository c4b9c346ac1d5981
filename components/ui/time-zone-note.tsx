'use client';

import { useBusinessPreferences } from '@/components/providers/business-preferences';
import { zoneLabel } from '@/lib/time-zone';

/** Says which zone a table's times (or a filter's days) are in: the business's, whatever the viewer's computer thinks. */
export function TimeZoneNote({ className = '', lead = 'Times in', id }: { className?: string; lead?: string; id?: string }) {
  const { timeZone } = useBusinessPreferences();
  return (
    <p id={id} className={`text-xs text-slate-600 ${className}`}>
      {lead} {zoneLabel(timeZone)}
    </p>
  );
}
