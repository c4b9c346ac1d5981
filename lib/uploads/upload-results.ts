import { sql } from 'drizzle-orm';
import { type CsvColumn, csvFile, csvTable, wallClockFormatter, timeColumn } from '../csv';
import { unitsText } from '../money-text';
import type { Db } from '../db/client';
import { getUploadJob, type UploadScope } from './upload-view';
import { UPLOAD_KINDS } from './upload-kinds';

interface ResultRow {
  row_number: number;
  status: string;
  input: Record<string, unknown>;
  currency: string | null;
  amount: number | null;
  fee: number | null;
  result_reference: string | null;
  error_code: string | null;
  error_message: string | null;
  finished_at: Date | null;
}

const BATCH = 1_000;
const money = (v: number | null) => (v === null ? null : unitsText(Number(v)));

/**
 * The results file of an upload: each row's line, outcome, reference or error,
 * then the row as it was read (cells a spreadsheet would run as formulas are
 * defused by csvCell). Read in batches, never the whole job at once.
 */
export async function uploadResultsFile(db: Db, opts: UploadScope & { timeZone: string }) {
  const job = await getUploadJob(db, opts);
  const clock = wallClockFormatter(opts.timeZone);
  const inputs: CsvColumn<ResultRow>[] = UPLOAD_KINDS[opts.kind].columns.map((c) => ({
    header: c,
    // Amounts went in as currency units and were kept in minor units: shown again as units.
    value: (r) => (c === 'amount' && typeof r.input.amount === 'number' ? unitsText(r.input.amount) : (r.input[c] as string | undefined)),
  }));
  const table = csvTable<ResultRow>([
    { header: 'line', value: (r) => r.row_number },
    { header: 'outcome', value: (r) => r.status },
    { header: 'reference', value: (r) => r.result_reference },
    { header: 'error_code', value: (r) => r.error_code },
    { header: 'error', value: (r) => r.error_message },
    ...inputs,
    { header: 'currency', value: (r) => r.currency },
    { header: 'fee', value: (r) => money(r.fee) },
    { header: timeColumn('finished_at', opts.timeZone), value: (r) => clock(r.finished_at) },
  ]);
  const batches = async function* () {
    let after = 0;
    for (;;) {
      const { rows } = await db.execute<ResultRow & Record<string, unknown>>(sql`
        SELECT r.row_number, r.status, r.input, r.currency, r.amount, r.fee, r.result_reference, r.error_code, r.error_message, r.finished_at
        FROM upload_rows r JOIN upload_jobs j ON j.id = r.job_id
        WHERE j.reference = ${job.reference} AND j.business_id = ${opts.businessId} AND j.mode = ${opts.mode} AND r.row_number > ${after}
        ORDER BY r.row_number LIMIT ${BATCH}`);
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1].row_number;
    }
  };
  return { name: `upload-${opts.kind}-${job.reference}`, ...csvFile(table, batches()) };
}
