import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { ServiceError } from '../errors';
import type { Mode } from '../validation';
import type { UploadTotals } from './preview-upload';
import { UPLOAD_KINDS, type UploadKind } from './upload-kinds';

interface UploadRowView {
  line: number;
  status: string;
  input: Record<string, unknown>;
  currency: string | null;
  amount: number | null;
  fee: number | null;
  reference: string | null;
  error: string | null;
  /** The refusal's code, for a dashboard that says it in another language. */
  errorCode: string | null;
}

export interface UploadJobView {
  reference: string;
  kind: UploadKind;
  /** The kind's CSV columns, in the file's order: how a row is shown. */
  columns: readonly string[];
  fileName: string;
  status: string;
  createdBy: number;
  decidedBy: number | null;
  createdAt: string;
  /** While awaiting approval: when it expires without a decision. */
  expiresAt: string | null;
  rowCount: number;
  invalidCount: number;
  totals: UploadTotals;
  /** Rows by status: invalid, pending, succeeded, failed, cancelled. */
  counts: Record<string, number>;
  /** The rows with a problem first (invalid, then failed), then the rest, up to the page's limit. */
  rows: UploadRowView[];
}

const SHOWN_ROWS = 100;

/** What previewUpload makes (upl_ and 24 letters or digits): anything else names no upload and never reaches a query (a NUL would fail it). */
export const isUploadReference = (reference: string) => /^upl_[0-9A-Za-z]{1,64}$/.test(reference);

export interface UploadScope {
  businessId: number;
  mode: Mode;
  kind: UploadKind;
  reference: string;
}

/** One upload of the business and mode, with its progress and the rows to show; not found for any other's. */
export async function getUploadJob(db: DbOrTx, opts: UploadScope): Promise<UploadJobView> {
  if (!isUploadReference(opts.reference)) throw new ServiceError('not_found', 'No upload with this reference belongs to your business.');
  const { rows: jobs } = await db.execute<Record<string, unknown>>(sql`
    SELECT id, reference, kind, file_name, status, created_by, decided_by, created_at, expires_at, row_count, invalid_count, totals FROM upload_jobs
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND kind = ${opts.kind} AND reference = ${opts.reference}`);
  const job = jobs[0];
  if (!job) throw new ServiceError('not_found', 'No upload with this reference belongs to your business.');
  const [counts, rows] = await Promise.all([
    db.execute<{ status: string; n: number }>(sql`SELECT status, count(*)::int AS n FROM upload_rows WHERE job_id = ${job.id} GROUP BY status`),
    db.execute<Record<string, unknown>>(sql`
      SELECT row_number, status, input, currency, amount, fee, result_reference, error_code, error_message FROM upload_rows WHERE job_id = ${job.id}
      ORDER BY CASE status WHEN 'invalid' THEN 0 WHEN 'failed' THEN 1 ELSE 2 END, row_number LIMIT ${SHOWN_ROWS}`),
  ]);
  return {
    reference: String(job.reference),
    kind: job.kind as UploadKind,
    columns: UPLOAD_KINDS[job.kind as UploadKind].columns,
    fileName: String(job.file_name),
    status: String(job.status),
    createdBy: Number(job.created_by),
    decidedBy: job.decided_by === null ? null : Number(job.decided_by),
    createdAt: new Date(job.created_at as string).toISOString(),
    expiresAt: job.status === 'awaiting_approval' && job.expires_at ? new Date(job.expires_at as string).toISOString() : null,
    rowCount: Number(job.row_count),
    invalidCount: Number(job.invalid_count),
    totals: job.totals as UploadTotals,
    counts: Object.fromEntries(counts.rows.map((r) => [r.status, r.n])),
    rows: rows.rows.map((r) => ({
      line: Number(r.row_number),
      status: String(r.status),
      input: r.input as Record<string, unknown>,
      currency: (r.currency as string | null) ?? null,
      amount: r.amount === null ? null : Number(r.amount),
      fee: r.fee === null ? null : Number(r.fee),
      reference: (r.result_reference as string | null) ?? null,
      error: (r.error_message as string | null) ?? null,
      errorCode: (r.error_code as string | null) ?? null,
    })),
  };
}

/** The latest uploads of one kind, for the upload page's list. */
export async function listUploadJobs(db: DbOrTx, opts: Omit<UploadScope, 'reference'>) {
  const { rows } = await db.execute<{ reference: string; file_name: string; status: string; row_count: number; created_at: string }>(sql`
    SELECT reference, file_name, status, row_count, created_at FROM upload_jobs
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND kind = ${opts.kind} ORDER BY id DESC LIMIT 10`);
  return rows.map((r) => ({
    reference: r.reference,
    fileName: r.file_name,
    status: r.status,
    rowCount: Number(r.row_count),
    createdAt: new Date(r.created_at),
  }));
}
