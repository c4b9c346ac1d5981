import { auditSentence } from '@/components/audit/audit-sentence';
import { auditCsvFile } from '@/lib/dashboard/audit-csv';
import { AUDIT_ACTION_FAMILIES, AUDIT_ACTOR_TYPES } from '@/lib/dashboard/list-audit-log';
import { csvExport } from '@/server/csv-response';
import { exportSource } from '@/server/read-your-writes';

export const dynamic = 'force-dynamic';

/** The audit entries the page's filters select, as CSV, streamed batch by batch as the browser reads. */
export function GET(req: Request) {
  return csvExport('audit:read', async (session) => {
    const params = new URL(req.url).searchParams;
    return {
      name: 'audit-log',
      ...auditCsvFile((await exportSource()).db, {
        businessId: session.businessId,
        mode: session.mode,
        timeZone: session.timeZone,
        actorType: AUDIT_ACTOR_TYPES.find((t) => t === params.get('actor')),
        action: AUDIT_ACTION_FAMILIES.find((f) => f === params.get('action')),
        sentence: (e) => auditSentence(e, session.timeZone),
      }),
    };
  });
}
