import { cardCsvFile } from '@/lib/dashboard/cards-csv';
import { parseCardFilters } from '@/lib/dashboard/search-cards';
import { csvExport } from '@/server/csv-response';
import { exportSource } from '@/server/read-your-writes';

export const dynamic = 'force-dynamic';

/** The cards the list's search and status select, as CSV, streamed batch by batch as the browser reads. */
export function GET(req: Request) {
  return csvExport('history:export', async (session) => {
    const filters = parseCardFilters(Object.fromEntries(new URL(req.url).searchParams));
    return {
      name: 'cards',
      ...cardCsvFile((await exportSource()).db, {
        businessId: session.businessId,
        mode: session.mode,
        country: session.country,
        timeZone: session.timeZone,
        ...filters,
      }),
    };
  });
}
