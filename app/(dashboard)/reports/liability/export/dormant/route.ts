import { requireLiabilityParams } from '@/lib/reports/liability/definitions';
import { dormantCsvFile } from '@/lib/reports/liability/export';
import { csvExport } from '@/server/csv-response';
import { exportSource } from '@/server/read-your-writes';

export const dynamic = 'force-dynamic';

/** The dormant cards at the end of the chosen day, largest balance first, as CSV streamed batch by batch. */
export function GET(req: Request) {
  return csvExport('reports:read', async (session) => {
    const p = requireLiabilityParams(Object.fromEntries(new URL(req.url).searchParams), session.timeZone);
    const file = dormantCsvFile((await exportSource()).db, {
      businessId: session.businessId,
      mode: session.mode,
      timeZone: session.timeZone,
      day: p.day,
      dormantDays: p.dormantDays,
      currency: p.currency,
    });
    return { name: `liability-dormant-${p.day}`, ...file };
  });
}
