import { payoutCsvFile } from '@/lib/dashboard/payouts-csv';
import { parsePayoutFilters } from '@/lib/dashboard/search-payouts';
import { csvExport } from '@/server/csv-response';
import { exportSource } from '@/server/read-your-writes';

export const dynamic = 'force-dynamic';

/** The payouts the page's filters select, as CSV, streamed batch by batch as the browser reads. */
export function GET(req: Request) {
  return csvExport('history:export', async (session) => {
    const filters = parsePayoutFilters(Object.fromEntries(new URL(req.url).searchParams));
    return {
      name: 'payouts',
      ...payoutCsvFile((await exportSource()).db, { businessId: session.businessId, mode: session.mode, timeZone: session.timeZone, filters }),
    };
  });
}
