import { payoutCsvHeader, payoutCsvRow } from '@/lib/dashboard/payouts-csv';
import { parsePayoutFilters, payoutBatches } from '@/lib/dashboard/search-payouts';
import { getDb } from '@/lib/db/client';
import { csvExport } from '@/server/csv-response';

export const dynamic = 'force-dynamic';

/** The filtered payouts as CSV, streamed batch by batch as the browser reads. */
export function GET(req: Request) {
  return csvExport('history:export', (session) => {
    const filters = parsePayoutFilters(Object.fromEntries(new URL(req.url).searchParams));
    const batches = payoutBatches(getDb(), { businessId: session.businessId, mode: session.mode, timeZone: session.timeZone, filters });
    return {
      name: 'payouts',
      header: payoutCsvHeader(),
      chunks: (async function* () {
        for await (const batch of batches) yield batch.map((p) => payoutCsvRow(p, session.timeZone)).join('');
      })(),
    };
  });
}
