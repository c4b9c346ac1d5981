import { shopOrdersCsvFile } from '@/lib/dashboard/shop-orders-csv';
import { getDb } from '@/lib/db/client';
import { csvExport } from '@/server/csv-response';

export const dynamic = 'force-dynamic';

/** The shop orders the page's search selects, as CSV. */
export function GET(req: Request) {
  return csvExport('history:export', (session) => ({
    name: 'shop-orders',
    ...shopOrdersCsvFile(getDb(), { businessId: session.businessId, mode: session.mode, phone: new URL(req.url).searchParams.get('phone') ?? undefined }),
  }));
}
