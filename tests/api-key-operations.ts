import { listApiRoutes } from './hardening/route-list';

/** `METHOD /route` (relative to /api/v1) of every operation a route file serves through apiRoute, and so through the scope check. */
export const apiKeyOperations = (): string[] =>
  listApiRoutes()
    .filter((r) => r.wrapped && r.route.startsWith('/api/v1/'))
    .map((r) => `${r.method} ${r.route.slice('/api/v1'.length)}`)
    .sort();
