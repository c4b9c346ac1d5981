import { toPaymentItems } from '@/components/payouts-list/list-items';
import { errorResponse } from '@/lib/api/api-route';
import { requestIdOf } from '@/lib/observability/request-context';
import { paymentsListPage } from '@/lib/dashboard/history-lists';
import { pageRead } from '@/server/read-your-writes';
import { requireAction } from '@/server/session';

export const dynamic = 'force-dynamic';

/** The payments list page and its totals as JSON, for the live list: the same search parameters (filters, sort, size, cursor) as /payments, scoped to the session's business and mode. */
export async function GET(req: Request) {
  try {
    const session = await requireAction('history:read');
    const params = Object.fromEntries(new URL(req.url).searchParams);
    const {
      value: { page, totals },
    } = await pageRead((db) => paymentsListPage(db, { ...session, params }));
    return Response.json(toPaymentItems(page, totals), { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    return errorResponse(err, requestIdOf(req.headers));
  }
}
