import { dehydrate, HydrationBoundary, type QueryKey } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getQueryClient } from './query-client';

/**
 * Data a server page has already read, put in a QueryClient of this render under
 * each query's key and handed to the browser's client: the first paint needs no
 * fetch, and later live invalidations refetch the same keys.
 */
export function Prefetched({ entries, children }: { entries: readonly (readonly [QueryKey, unknown])[]; children: ReactNode }) {
  const client = getQueryClient();
  for (const [key, data] of entries) client.setQueryData(key, data);
  return <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>;
}
