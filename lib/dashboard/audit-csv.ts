import type { Db } from '../db/client';
import { csvFile, csvTable, timeColumn, wallClockFormatter, type CsvColumn } from '../csv';
import { type AuditEntry, type ListAuditLogOptions, listAuditLog } from './list-audit-log';

export type AuditCsvFileOptions = Pick<ListAuditLogOptions, 'businessId' | 'mode' | 'actorType' | 'action'> & {
  timeZone: string;
  /** The entry as the page says it: the export carries the same sentence as the screen. */
  sentence: (e: AuditEntry) => string;
};

function auditCsv(opts: AuditCsvFileOptions) {
  const clock = wallClockFormatter(opts.timeZone);
  const columns: CsvColumn<AuditEntry>[] = [
    { header: timeColumn('at', opts.timeZone), value: (e) => clock(new Date(e.createdAt)) },
    { header: 'at_utc', value: (e) => e.createdAt },
    { header: 'actor_type', value: (e) => e.actorType },
    { header: 'actor', value: (e) => e.actorLabel },
    { header: 'action', value: (e) => e.action },
    { header: 'target', value: (e) => e.target },
    { header: 'mode', value: (e) => e.mode },
    { header: 'what_happened', value: (e) => opts.sentence(e) },
    { header: 'details', value: (e) => JSON.stringify(e.details) },
  ];
  return csvTable(columns);
}

/** The page's own query and filters, walked older by its cursor, five hundred entries a batch. */
async function* auditBatches(db: Db, opts: AuditCsvFileOptions): AsyncGenerator<AuditEntry[]> {
  let before: string | undefined;
  for (;;) {
    const page = await listAuditLog(db, { businessId: opts.businessId, mode: opts.mode, actorType: opts.actorType, action: opts.action, before, limit: 500 });
    if (page.items.length) yield page.items;
    if (!page.older) return;
    before = page.older;
  }
}

/** The header and the lines of the audit entries the filters select, newest first, a batch per chunk. */
export function auditCsvFile(db: Db, opts: AuditCsvFileOptions) {
  return csvFile(auditCsv(opts), auditBatches(db, opts));
}
