import { getDb } from '@/lib/db/client';
import { requireLiabilityParams } from '@/lib/reports/liability/definitions';
import { agedCsvFile } from '@/lib/reports/liability/export';
import { csvExport } from '@/server/csv-response';

export const dynamic = 'force-dynamic';

/** The liability at the end of the chosen day, aged by last activity, as CSV. */
export function GET(req: Request) {
  return csvExport('reports:read', async (session) => {
    const p = requireLiabilityParams(Object.fromEntries(new URL(req.url).searchParams), session.timeZone);
    const file = await agedCsvFile(getDb(), {
      businessId: session.businessId,
      mode: session.mode,
      timeZone: session.timeZone,
      day: p.day,
      dormantDays: p.dormantDays,
    });
    return { name: `liability-aged-${p.day}`, ...file };
  });
}
