import { defaultShouldDehydrateQuery, isServer, QueryClient } from '@tanstack/react-query';

function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      // Data prefetched on the server is fresh for a while, so hydration does not refetch it at once; the live stream invalidates what changes.
      queries: { staleTime: 30_000, refetchOnWindowFocus: true },
      dehydrate: { shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === 'pending' },
    },
  });
}

let browserQueryClient: QueryClient | undefined;

/** A new client per server render, one for the whole browser session. */
export function getQueryClient(): QueryClient {
  if (isServer) return makeQueryClient();
  browserQueryClient ??= makeQueryClient();
  return browserQueryClient;
}
