import type { ListView } from '@/lib/dashboard/keyset-cursor';

/** The order and size as URL parameters, left out when they are the defaults so plain links stay short. */
export function viewQuery(view: ListView): { sort?: string; size?: string } {
  return { sort: view.sort === 'newest' ? undefined : view.sort, size: view.size === 25 ? undefined : String(view.size) };
}

/** The filters as a query string, plus extra keys (order, size, a cursor), for links that keep them. */
export function filterQuery(values: Record<string, string | undefined>, extra: Record<string, string | undefined> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...values, ...extra })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}
