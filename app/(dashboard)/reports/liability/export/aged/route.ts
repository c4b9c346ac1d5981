import { requireLiabilityParams } from '@/lib/reports/liability/definitions';
import { agedCsvFile } from '@/lib/reports/liability/export';
import { csvExport } from '@/server/csv-response';
import { exportSource } from '@/server/read-your-writes';

export const dynamic = 'force-dynamic';

/** The liability at the end of the chosen day, aged by last activity, as CSV. */
export function GET(req: Request) {
  return csvExport('reports:read', async (session) => {
    const p = requireLiabilityParams(Object.fromEntries(new URL(req.url).searchParams), session.timeZone);
    const file = await agedCsvFile((await exportSource()).db, {
      businessId: session.businessId,
      mode: session.mode,
      timeZone: session.timeZone,
      day: p.day,
      dormantDays: p.dormantDays,
    });
    return { name: `liability-aged-${p.day}`, ...file };
  });
}
