'use client';

import { useTranslations } from 'next-intl';
import { useBusinessPreferences } from '@/components/providers/business-preferences';
import { zoneLabel } from '@/lib/time-zone';

/** Says which zone a table's times (or a filter's days) are in: the business's, whatever the viewer's computer thinks. */
export function TimeZoneNote({ className = '', lead, id }: { className?: string; lead?: string; id?: string }) {
  const t = useTranslations('Reports');
  const { timeZone } = useBusinessPreferences();
  return (
    <p id={id} className={`text-xs text-slate-600 ${className}`}>
      {lead ?? t('timesIn')} {zoneLabel(timeZone)}
    </p>
  );
}
