import { getDb } from '@/lib/db/client';
import { registeredProvider } from '@/lib/providers/provider-registry';
import { requireReconciliationParams } from '@/lib/reports/reconciliation/definitions';
import { reconciliationCsvFile } from '@/lib/reports/reconciliation/export';
import { csvExport } from '@/server/csv-response';

export const dynamic = 'force-dynamic';

/** The reconciliation the page's choices select, as CSV: a line per day and currency, then the totals. */
export function GET(req: Request) {
  return csvExport('reports:read', async (session) => {
    const params = requireReconciliationParams(Object.fromEntries(new URL(req.url).searchParams), session.timeZone);
    const file = await reconciliationCsvFile(getDb(), {
      businessId: session.businessId,
      mode: session.mode,
      timeZone: session.timeZone,
      provider: registeredProvider(session.mode),
      ...params,
    });
    const at = params.location === undefined ? '' : params.location === 'none' ? 'no-branch-' : `branch-${params.location}-`;
    return { name: `reconciliation-${at}${params.from}-to-${params.to}`, ...file };
  });
}
