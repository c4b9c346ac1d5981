import { paymentCsvFile } from '@/lib/dashboard/payments-csv';
import { parsePaymentFilters } from '@/lib/dashboard/search-payments';
import { csvExport } from '@/server/csv-response';
import { exportSource } from '@/server/read-your-writes';

export const dynamic = 'force-dynamic';

/** The payments the page's filters select, as CSV, streamed batch by batch as the browser reads. */
export function GET(req: Request) {
  return csvExport('history:export', async (session) => {
    const filters = parsePaymentFilters(Object.fromEntries(new URL(req.url).searchParams));
    return {
      name: 'payments',
      ...paymentCsvFile((await exportSource()).db, { businessId: session.businessId, mode: session.mode, timeZone: session.timeZone, filters }),
    };
  });
}
