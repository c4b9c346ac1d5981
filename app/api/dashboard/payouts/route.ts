import { toPayoutItems } from '@/components/payouts-list/list-items';
import { errorResponse } from '@/lib/api/api-route';
import { requestIdOf } from '@/lib/observability/request-context';
import { payoutsListPage } from '@/lib/dashboard/history-lists';
import { pageRead } from '@/server/read-your-writes';
import { requireAction } from '@/server/session';

export const dynamic = 'force-dynamic';

/** The payouts list page and its totals as JSON, for the live list: the same search parameters (filters, sort, size, cursor) as /payouts, scoped to the session's business and mode. */
export async function GET(req: Request) {
  try {
    const session = await requireAction('history:read');
    const params = Object.fromEntries(new URL(req.url).searchParams);
    const {
      value: { page, totals, merchantNames },
    } = await pageRead((db) => payoutsListPage(db, { ...session, params }));
    return Response.json(toPayoutItems(page, merchantNames, totals), { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    return errorResponse(err, requestIdOf(req.headers));
  }
}
