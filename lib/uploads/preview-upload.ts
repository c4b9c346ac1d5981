import { getBusinessSettings } from '../business/business-settings';
import type { Db } from '../db/client';
import { uploadJobs, uploadRows } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { newReference } from '../ids';
import type { Mode } from '../validation';
import { parseCsv } from './parse-csv';
import { errorText, UPLOAD_KINDS, type UploadKind } from './upload-kinds';

export interface PreviewUploadOptions {
  businessId: number;
  mode: Mode;
  userId: number;
  kind: UploadKind;
  fileName: string;
  text: string;
}

export type UploadTotals = Record<string, { rows: number; amount: number; fee: number }>;

const INSERT_CHUNK = 1_000;

/**
 * Reads a CSV file, checks every row as the core would (errors per row), and
 * keeps the job and its rows: the preview shows them and the run reads them,
 * so what runs is exactly what was shown. Nothing moves until the job is started.
 */
export async function previewUpload(db: Db, opts: PreviewUploadOptions): Promise<{ reference: string }> {
  const def = UPLOAD_KINDS[opts.kind];
  const { headers, records } = parseCsv(opts.text);
  const unknown = headers.filter((h) => h && !def.columns.includes(h));
  if (unknown.length > 0) {
    throw new ServiceError('validation_error', { file: `Unknown column ${unknown.join(', ')}: the columns are ${def.columns.join(', ')}.` });
  }
  const missing = def.required.filter((c) => !headers.includes(c));
  if (missing.length > 0) throw new ServiceError('validation_error', { file: `The header line lacks ${missing.join(', ')}.` });

  const { country } = await getBusinessSettings(db, opts.businessId);
  const ctx = { db, businessId: opts.businessId, mode: opts.mode, country, seen: new Map<string, number>() };
  const rows: (typeof uploadRows.$inferInsert)[] = [];
  const totals: UploadTotals = {};
  let invalid = 0;
  for (const record of records) {
    try {
      const checked = await def.check(ctx, record.cells, record.line);
      rows.push({
        jobId: 0,
        rowNumber: record.line,
        input: checked.input,
        currency: checked.currency,
        amount: checked.amount,
        fee: checked.fee,
        status: 'pending',
      });
      if (checked.currency) {
        totals[checked.currency] ??= { rows: 0, amount: 0, fee: 0 };
        const t = totals[checked.currency];
        t.rows += 1;
        t.amount += checked.amount ?? 0;
        t.fee += checked.fee ?? 0;
      }
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      invalid += 1;
      rows.push({ jobId: 0, rowNumber: record.line, input: record.cells, status: 'invalid', errorCode: err.code, errorMessage: errorText(err) });
    }
  }

  const reference = newReference('upl');
  await inTransaction(db, async (tx) => {
    const [job] = await tx
      .insert(uploadJobs)
      .values({
        reference,
        businessId: opts.businessId,
        mode: opts.mode,
        kind: opts.kind,
        fileName: opts.fileName.slice(0, 200),
        createdBy: opts.userId,
        rowCount: records.length,
        invalidCount: invalid,
        totals,
      })
      .returning({ id: uploadJobs.id });
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      await tx.insert(uploadRows).values(rows.slice(i, i + INSERT_CHUNK).map((r) => ({ ...r, jobId: job.id })));
    }
  });
  return { reference };
}
