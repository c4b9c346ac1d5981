import { errorResponse } from '@/lib/api/api-route';
import { requestIdOf } from '@/lib/observability/request-context';
import { searchEverything } from '@/lib/search/search-everything';
import { pageRead } from '@/server/read-your-writes';
import { requireAction } from '@/server/session';

export const dynamic = 'force-dynamic';

/** The header search as you type: GET ?q=..., the signed-in business and mode only; the results grouped by kind. */
export async function GET(req: Request) {
  try {
    const session = await requireAction('cards:read');
    const q = new URL(req.url).searchParams.get('q');
    const { value: data } = await pageRead((db) =>
      searchEverything(db, {
        businessId: session.businessId,
        mode: session.mode,
        role: session.role,
        country: session.country,
        query: q ?? '',
      }),
    );
    return Response.json({ status: 'success', data }, { headers: { 'cache-control': 'private, no-store' } });
  } catch (err) {
    return errorResponse(err, requestIdOf(req.headers));
  }
}
