'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import { useLocale, useTranslations } from 'next-intl';
import { failureOf, unwrap } from '@/components/payouts/action-result';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { Stat } from '@/components/ui/stat';
import { StatusBadge } from '@/components/ui/status-badge';
import { TableHead } from '@/components/ui/table-head';
import type { ActionFailure } from '@/lib/actions/define-action';
import type { UploadJobView } from '@/lib/uploads/upload-view';
import { approvePayoutUpload, cancelOwnUpload, rejectPayoutUpload, startCardUpload, startPayoutUpload } from '@/server/actions/uploads';

/** The row cells a validation refusal names ("Validation error: amount: …; phone_number: …"), for a reader of another language. */
function refusedColumns(message: string): string[] {
  return [...message.matchAll(/(?:^Validation error: |; )([a-z_]+): /g)].map((m) => m[1]);
}

async function fetchJob(kind: string, reference: string): Promise<UploadJobView> {
  const res = await fetch(`/api/dashboard/uploads/${kind}/${reference}`, { cache: 'no-store' });
  const body = await res.json();
  if (!res.ok) throw new Error(body.message);
  return body.data;
}

/** An upload's preview, progress and results, polled while it runs or waits. */
export function UploadJob({ initial, userId, canApprove }: { initial: UploadJobView; userId: number; canApprove: boolean }) {
  const t = useTranslations('Uploads');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const errorText = useErrorText();
  const money = (minor: number, currency: string) => formatMoney(minor, currency, locale);
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
  const progressText = `${t('job.progressOf', { run: run.toLocaleString('en'), valid: valid.toLocaleString('en') })}${cancelled > 0 ? ` ${t('job.progressCancelled', { count: cancelled.toLocaleString('en') })}` : ''}`;
  /** A row's refusal: the core's sentence in English; in another language its code's, with the columns it names. */
  const rowError = (r: UploadJobView['rows'][number]) => {
    if (locale === 'en' || !r.errorCode || !r.error) return r.error;
    const columns = refusedColumns(r.error);
    const said = errorText({ code: r.errorCode as ActionFailure['code'], message: r.error });
    return columns.length ? t('job.rowColumns', { error: said, columns: columns.join(', ') }) : said;
  };
  const mine = job.createdBy === userId;
  const currencies = Object.entries(job.totals);

  return (
    <div className="space-y-6">
      <div className="rounded-xl bg-white p-4 ring-1 ring-slate-200 sm:p-6">
        <div className="flex flex-wrap items-center gap-2">
          <StatusBadge status={job.status.replace('_', ' ')} label={t(`statuses.${job.status}`)} />
          <p className="text-sm text-slate-700" data-testid="upload-status-text">
            {t(`statusText.${job.status}`)}
            {job.expiresAt && <> {t.rich('job.expires', { time: () => <LocalTime iso={job.expiresAt!} /> })}</>}
          </p>
        </div>
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
          <Stat label={t('job.rows')}>{job.rowCount.toLocaleString('en')}</Stat>
          <Stat label={t('job.valid')} valueTestId="upload-valid">
            {valid.toLocaleString('en')}
          </Stat>
          <Stat label={t('job.withErrors')} valueTestId="upload-invalid">
            {job.invalidCount.toLocaleString('en')}
          </Stat>
          <Stat label={t('job.succeeded')} valueTestId="upload-succeeded">
            {(job.counts.succeeded ?? 0).toLocaleString('en')}
          </Stat>
        </dl>
        {currencies.length > 0 && (
          <dl className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-3" data-testid="upload-totals">
            {currencies.map(([currency, total]) =>
              kind === 'payouts' ? (
                <Stat
                  key={currency}
                  label={t('job.payoutTotal', { currency, count: total.rows })}
                  box="muted"
                  detail={t('job.fees', { amount: money(total.fee, currency) })}
                >
                  {money(total.amount, currency)}
                </Stat>
              ) : (
                <Stat key={currency} label={t('job.cardTotal', { currency })} box="muted">
                  {total.rows.toLocaleString('en')}
                </Stat>
              ),
            )}
          </dl>
        )}
        {job.status !== 'previewed' && (
          <div className="mt-4">
            <div className="flex justify-between text-sm text-slate-700">
              <span id="upload-progress-label">{t('job.progress')}</span>
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
            <Notice tone="error">{errorText(failureOf(decide.error))}</Notice>
          </div>
        )}
        <div className="mt-4 flex flex-wrap gap-2">
          {job.status === 'previewed' && valid > 0 && mine && (
            <Button block={false} disabled={decide.isPending} onClick={() => decide.mutate('start')}>
              {t(`job.start.${kind}`, { count: valid, shown: valid.toLocaleString('en') })}
            </Button>
          )}
          {job.status === 'awaiting_approval' && canApprove && !mine && (
            <>
              <Button block={false} disabled={decide.isPending} onClick={() => decide.mutate('approve')}>
                {t('job.approve')}
              </Button>
              <Button block={false} variant="danger" disabled={decide.isPending} onClick={() => decide.mutate('reject')}>
                {t('job.reject')}
              </Button>
            </>
          )}
          {mine && ['previewed', 'awaiting_approval', 'running'].includes(job.status) && (
            <Button block={false} variant="secondary" disabled={decide.isPending} onClick={() => decide.mutate('cancel')}>
              {t('job.cancel')}
            </Button>
          )}
          <LinkButton href={`/${kind}/upload/${reference}/results`} variant="secondary" download>
            {t('job.download')}
          </LinkButton>
        </div>
      </div>

      <section aria-labelledby="upload-rows-heading" className="rounded-xl bg-white ring-1 ring-slate-200">
        <h2 id="upload-rows-heading" className="px-4 pt-4 text-lg font-semibold text-slate-900">
          {job.rows.length < job.rowCount ? t('job.rowsFirst', { count: job.rows.length }) : t('job.rows')}
        </h2>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-sm">
            <TableHead
              variant="scrolling"
              columns={[t('job.line'), t('job.outcome'), t('job.row'), { label: t('job.amount'), numeric: true }, t('job.referenceOrError')]}
            />
            <tbody>
              {job.rows.map((r) => (
                <tr key={r.line} className="border-t border-slate-100 align-top" data-testid="upload-row">
                  <td className="px-3 py-2 tabular-nums">{r.line}</td>
                  <td className="px-3 py-2">
                    <StatusBadge status={r.status === 'succeeded' ? 'success' : r.status} label={t(`rowStatuses.${r.status}`)} />
                  </td>
                  <td className="max-w-xs px-3 py-2 break-words text-slate-700">{rowSummary(job.columns, r.input)}</td>
                  <td className="px-3 py-2 text-right tabular-nums whitespace-nowrap">
                    {r.amount !== null && r.currency ? money(r.amount, r.currency) : ''}
                    {r.fee ? <span className="block text-xs text-slate-600">{t('job.rowFee', { amount: money(r.fee, r.currency!) })}</span> : null}
                  </td>
                  <td className="px-3 py-2 break-words">{r.error ? <span className="text-red-800">{rowError(r)}</span> : <code>{r.reference}</code>}</td>
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
