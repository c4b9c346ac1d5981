'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { failureOf, unwrap } from '@/components/payouts/action-result';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { Stat } from '@/components/ui/stat';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableHead } from '@/components/ui/table-head';
import type { UploadJobView } from '@/lib/uploads/upload-view';
import { approvePayoutUpload, cancelOwnUpload, rejectPayoutUpload, startCardUpload, startPayoutUpload } from '@/server/actions/uploads';

const STATUS_TEXT: Record<string, string> = {
  previewed: 'Checked: start it to run the valid rows.',
  awaiting_approval: 'Over the approval threshold: waiting for a second person, its money held on the cards it pays from.',
  running: 'Running in the background: you may close this page.',
  done: 'Done: download the results file.',
  cancelled: 'Cancelled: the rows not yet run will not run.',
  expired: 'Expired: nobody approved it in time, so none of its rows will run. Upload the file again to pay them.',
};

async function fetchJob(kind: string, reference: string): Promise<UploadJobView> {
  const res = await fetch(`/api/dashboard/uploads/${kind}/${reference}`, { cache: 'no-store' });
  const body = await res.json();
  if (!res.ok) throw new Error(body.message);
  return body.data;
}

/** An upload's preview, progress and results, polled while it runs or waits. */
export function UploadJob({ initial, userId, canApprove }: { initial: UploadJobView; userId: number; canApprove: boolean }) {
  const { kind, reference } = initial;
  const { data: job, refetch } = useQuery({
    queryKey: ['upload', kind, reference],
    queryFn: () => fetchJob(kind, reference),
    initialData: initial,
    refetchInterval: (q) => (q.state.data && ['running', 'awaiting_approval'].includes(q.state.data.status) ? 1000 : false),
  });
  const decide = useMutation({
    mutationFn: (action: 'start' | 'approve' | 'reject' | 'cancel') => {
      const input = { reference };
      if (action === 'start') return unwrap(kind === 'cards' ? startCardUpload(input) : startPayoutUpload(input));
      if (action === 'approve') return unwrap(approvePayoutUpload(input));
      if (action === 'reject') return unwrap(rejectPayoutUpload(input));
      return unwrap(cancelOwnUpload(input));
    },
    onSettled: () => refetch(),
  });

  const valid = job.rowCount - job.invalidCount;
  const run = (job.counts.succeeded ?? 0) + (job.counts.failed ?? 0);
  const cancelled = job.counts.cancelled ?? 0;
  // A cancelled row is over but was never run: the bar shows it apart, in grey, and the text counts it apart.
  const share = (n: number) => (valid === 0 ? 0 : Math.floor((n * 100) / valid));
  const percent = valid === 0 ? 100 : share(run + cancelled);
  const progressText = `${run.toLocaleString('en')} of ${valid.toLocaleString('en')} rows${cancelled > 0 ? ` (${cancelled.toLocaleString('en')} cancelled)` : ''}`;
  const mine = job.createdBy === userId;
  const currencies = Object.entries(job.totals);

  return (
    <div className="space-y-6">
      <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={job.status.replace('_', ' ')} />
          <p className="text-sm text-slate-700" data-testid="upload-status-text">
            {STATUS_TEXT[job.status]}
            {job.expiresAt && (
              <>
                {' '}
                Expires <LocalTime iso={job.expiresAt} /> unless decided.
              </>
            )}
          </p>
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Stat label="Rows">{job.rowCount.toLocaleString('en')}</Stat>
          <Stat label="Valid" valueTestId="upload-valid">
            {valid.toLocaleString('en')}
          </Stat>
          <Stat label="With errors" valueTestId="upload-invalid">
            {job.invalidCount.toLocaleString('en')}
          </Stat>
          <Stat label="Succeeded" valueTestId="upload-succeeded">
            {(job.counts.succeeded ?? 0).toLocaleString('en')}
          </Stat>
        </dl>
        {currencies.length > 0 && (
          <dl className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-3" data-testid="upload-totals">
            {currencies.map(([currency, t]) =>
              kind === 'payouts' ? (
                <Stat key={currency} label={`${currency}: ${t.rows} payouts`} box="muted" detail={`Fees ${formatMoney(t.fee, currency)}`}>
                  {formatMoney(t.amount, currency)}
                </Stat>
              ) : (
                <Stat key={currency} label={`${currency} cards`} box="muted">
                  {t.rows.toLocaleString('en')}
                </Stat>
              ),
            )}
          </dl>
        )}
        {job.status !== 'previewed' && (
          <div className="mt-4">
            <div className="flex justify-between text-sm text-slate-700">
              <span id="upload-progress-label">Progress</span>
              <span data-testid="upload-progress-text">{progressText}</span>
            </div>
            <div
              role="progressbar"
              aria-labelledby="upload-progress-label"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
              aria-valuetext={progressText}
              className="mt-1 flex h-3 overflow-hidden rounded-full bg-slate-200"
            >
              <div className="h-full bg-emerald-600 transition-all" style={{ width: `${share(run)}%` }} />
              <div className="h-full bg-slate-400 transition-all" data-testid="upload-progress-cancelled" style={{ width: `${share(cancelled)}%` }} />
            </div>
          </div>
        )}
        {decide.isError && (
          <div className="mt-4">
            <Notice tone="error">{failureOf(decide.error).message}</Notice>
          </div>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          {job.status === 'previewed' && valid > 0 && mine && (
            <Button block={false} disabled={decide.isPending} onClick={() => decide.mutate('start')}>
              Start {valid.toLocaleString('en')} {kind === 'cards' ? 'cards' : 'payouts'}
            </Button>
          )}
          {job.status === 'awaiting_approval' && canApprove && !mine && (
            <>
              <Button block={false} disabled={decide.isPending} onClick={() => decide.mutate('approve')}>
                Approve and run
              </Button>
              <Button block={false} variant="danger" disabled={decide.isPending} onClick={() => decide.mutate('reject')}>
                Reject
              </Button>
            </>
          )}
          {mine && ['previewed', 'awaiting_approval', 'running'].includes(job.status) && (
            <Button block={false} variant="secondary" disabled={decide.isPending} onClick={() => decide.mutate('cancel')}>
              Cancel upload
            </Button>
          )}
          <LinkButton href={`/${kind}/upload/${reference}/results`} variant="secondary" download>
            Download results (CSV)
          </LinkButton>
        </div>
      </div>

      <section aria-labelledby="upload-rows-heading" className="rounded-xl bg-white ring-1 ring-slate-200">
        <h2 id="upload-rows-heading" className="px-4 pt-4 text-lg font-semibold text-slate-900">
          Rows{job.rows.length < job.rowCount ? ` (the first ${job.rows.length}, errors first)` : ''}
        </h2>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-sm">
            <TableHead variant="scrolling" columns={['Line', 'Outcome', 'Row', { label: 'Amount', numeric: true }, 'Reference or error']} />
            <tbody>
              {job.rows.map((r) => (
                <tr key={r.line} className="border-t border-slate-100 align-top" data-testid="upload-row">
                  <td className="px-3 py-2 tabular-nums">{r.line}</td>
                  <td className="px-3 py-2">
                    <StatusBadge status={r.status === 'succeeded' ? 'success' : r.status} />
                  </td>
                  <td className="max-w-xs px-3 py-2 break-words text-slate-700">{rowSummary(job.columns, r.input)}</td>
                  <td className="px-3 py-2 text-right tabular-nums whitespace-nowrap">
                    {r.amount !== null && r.currency ? formatMoney(r.amount, r.currency) : ''}
                    {r.fee ? <span className="block text-xs text-slate-600">fee {formatMoney(r.fee, r.currency!)}</span> : null}
                  </td>
                  <td className="px-3 py-2 break-words">{r.error ? <span className="text-red-800">{r.error}</span> : <code>{r.reference}</code>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}

/** The row's cells in the file's column order; the amount has its own column. */
function rowSummary(columns: readonly string[], input: Record<string, unknown>): string {
  return columns
    .filter((c) => c !== 'amount' && input[c] !== undefined && input[c] !== '')
    .map((c) => String(input[c]))
    .join(' · ');
}
