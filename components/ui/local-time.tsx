'use client';

import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/** A timestamp in the viewer's own time zone (the server renders UTC until the browser takes over). */
export function LocalTime({ iso }: { iso: string }) {
  const text = useSyncExternalStore(
    subscribe,
    () => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    () => `${iso.slice(0, 16).replace('T', ' ')} UTC`,
  );
  return <time dateTime={iso}>{text}</time>;
}
