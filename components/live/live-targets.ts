import type { QueryKey } from '@tanstack/react-query';
import type { LiveUpdate } from '@/lib/webhooks/live-updates';
import { liveKeys } from '@/components/payouts-list/list-items';

/** The queries a live update touches: the lists its payout or payment belongs to, and the delivery log when a webhook went out. */
export function queriesTouched(u: LiveUpdate): QueryKey[] {
  const keys: QueryKey[] = [];
  if (u.kind === 'payout') keys.push(['payouts', 'list']);
  if (u.kind === 'payment') keys.push(['payments', 'list']);
  // A created notice has no event behind it; every other update is an event, which has a delivery.
  if (!u.event.endsWith('.created')) keys.push(liveKeys.deliveries);
  return keys;
}

/** Every query a live update can touch, fetched again when the stream (re)connects. */
export const CATCH_UP_QUERIES: QueryKey[] = [['payouts', 'list'], ['payments', 'list'], liveKeys.deliveries];

const LIVE_QUERY_PAGES = new Set(['/payouts', '/payments', '/developers']);
const STILL_PAGES = new Set(['/team', '/payouts/new', '/payments/new', '/cards/new']);

/**
 * Whether the open page, still rendered on the server, must be re-rendered for
 * this update: pages that read their data through TanStack Query never are,
 * and a payout, payment or card page only for an update about that one.
 */
export function pageNeedsRefresh(pathname: string, u: LiveUpdate): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (LIVE_QUERY_PAGES.has(path) || STILL_PAGES.has(path)) return false;
  const [, section, id] = path.split('/');
  if (id && section === 'payouts') return u.kind === 'payout' && u.reference === decodeURIComponent(id) && !u.event.endsWith('.created');
  if (id && section === 'payments') return u.kind === 'payment' && u.reference === decodeURIComponent(id) && !u.event.endsWith('.created');
  if (id && section === 'cards') return u.cards ? u.cards.includes(decodeURIComponent(id)) : true;
  if (section === 'team') return false;
  return true;
}

/** Whether the open page, still rendered on the server, may be stale after the stream was down: any page that shows data changed by events. */
export function pageNeedsRefreshAfterGap(pathname: string): boolean {
  const path = pathname.replace(/\/+$/, '') || '/';
  const [, section] = path.split('/');
  return !LIVE_QUERY_PAGES.has(path) && !STILL_PAGES.has(path) && section !== 'team';
}
