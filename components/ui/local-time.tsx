'use client';

import { useBusinessPreferences } from '@/components/providers/business-preferences';
import { formatDateTime } from '@/lib/time-zone';

/** A timestamp on the business's wall clock: the same text on the server and in every browser, wherever the viewer is. */
export function LocalTime({ iso }: { iso: string }) {
  const { timeZone } = useBusinessPreferences();
  return (
    <time dateTime={iso} title={`${iso.slice(0, 19).replace('T', ' ')} UTC`}>
      {formatDateTime(timeZone, new Date(iso))}
    </time>
  );
}
