'use client';

import { useQueryClient } from '@tanstack/react-query';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useRef } from 'react';
import { CATCH_UP_QUERIES, pageNeedsRefresh, pageNeedsRefreshAfterGap, queriesTouched } from '@/components/live/live-targets';
import type { LiveUpdate } from '@/lib/webhooks/live-updates';

/**
 * Listens for changes to this business and mode (server-sent events fed by
 * PostgreSQL LISTEN/NOTIFY) and invalidates exactly the TanStack queries an
 * update touches; a page still rendered on the server is refreshed only when
 * the update is about what it shows.
 */
export function LiveRefresh() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const pathname = usePathname();
  const pathRef = useRef(pathname);
  pathRef.current = pathname;
  useEffect(() => {
    const source = new EventSource('/api/dashboard/live');
    let timer: ReturnType<typeof setTimeout> | undefined;
    let connections = 0;
    const refreshSoon = () => {
      clearTimeout(timer);
      // A burst of events becomes one refresh.
      timer = setTimeout(() => router.refresh(), 150);
    };
    // Sent once the server listens, on the first connection and after every reconnect: whatever
    // changed while nobody was listening (since the page rendered, or while the link was down) is fetched again.
    source.addEventListener('ready', () => {
      connections++;
      for (const queryKey of CATCH_UP_QUERIES) void queryClient.invalidateQueries({ queryKey });
      if (connections > 1 && pageNeedsRefreshAfterGap(pathRef.current)) refreshSoon();
      document.documentElement.dataset.live = 'listening';
    });
    source.onerror = () => {
      document.documentElement.dataset.live = 'reconnecting';
    };
    source.onmessage = (message) => {
      let update: LiveUpdate;
      try {
        update = JSON.parse(message.data);
      } catch {
        return;
      }
      for (const queryKey of queriesTouched(update)) void queryClient.invalidateQueries({ queryKey });
      if (pageNeedsRefresh(pathRef.current, update)) refreshSoon();
    };
    return () => {
      clearTimeout(timer);
      source.close();
      delete document.documentElement.dataset.live;
    };
  }, [router, queryClient]);
  return null;
}
