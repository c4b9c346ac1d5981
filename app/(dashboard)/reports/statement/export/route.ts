import { requireStatementParams, statementCsvFile, statementCurrencies } from '@/lib/reports/business-statement';
import { csvExport } from '@/server/csv-response';
import { exportSource } from '@/server/read-your-writes';

export const dynamic = 'force-dynamic';

/** The statement the page's choices select, as CSV: the opening line, every movement a batch at a time, the closing line. */
export function GET(req: Request) {
  return csvExport('reports:read', async (session) => {
    const { db } = await exportSource();
    const params = requireStatementParams(Object.fromEntries(new URL(req.url).searchParams), session.timeZone, await statementCurrencies(db, session));
    const file = await statementCsvFile(db, { businessId: session.businessId, mode: session.mode, timeZone: session.timeZone, ...params });
    return { name: `statement-${params.currency}-${params.from}-to-${params.to}`, ...file };
  });
}
