'use client';

import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/**
 * Listens for verified webhook arrivals of this business and mode (server-sent
 * events fed by PostgreSQL LISTEN/NOTIFY) and re-renders the open page.
 */
export function LiveRefresh() {
  const router = useRouter();
  useEffect(() => {
    const source = new EventSource('/api/dashboard/live');
    let timer: ReturnType<typeof setTimeout> | undefined;
    source.onmessage = () => {
      clearTimeout(timer);
      // A burst of events becomes one refresh.
      timer = setTimeout(() => router.refresh(), 150);
    };
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [router]);
  return null;
}
