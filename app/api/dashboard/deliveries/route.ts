import { errorResponse } from '@/lib/api/api-route';
import { requestIdOf } from '@/lib/observability/request-context';
import { listDeliveryLog } from '@/lib/dashboard/list-delivery-log';
import { getDb } from '@/lib/db/client';
import { requireAction } from '@/server/session';

export const dynamic = 'force-dynamic';

/** One page of the delivery log as JSON, for the live log on /developers; the session's business and mode only. */
export async function GET(req: Request) {
  try {
    const session = await requireAction('developers');
    const raw = Number(new URL(req.url).searchParams.get('page') ?? 1);
    const page = Number.isSafeInteger(raw) && raw >= 1 && raw <= 500 ? raw : 1;
    const log = await listDeliveryLog(getDb(), { businessId: session.businessId, mode: session.mode, page, limit: 20 });
    return Response.json(log, { headers: { 'cache-control': 'no-store' } });
  } catch (err) {
    return errorResponse(err, requestIdOf(req.headers));
  }
}
