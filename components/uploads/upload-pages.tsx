import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { LocalTime } from '@/components/ui/local-time';
import { PageHeader } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import type { DashboardSession } from '@/lib/auth/session-types';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { MAX_UPLOAD_BYTES, MAX_UPLOAD_ROWS } from '@/lib/uploads/parse-csv';
import { UPLOAD_KINDS, type UploadKind } from '@/lib/uploads/upload-kinds';
import { getUploadJob, listUploadJobs } from '@/lib/uploads/upload-view';
import { UploadForm } from './upload-form';
import { UploadJob } from './upload-job';

const BACK: Record<UploadKind, string> = { cards: '/cards', payouts: '/payouts' };

export async function uploadMetadata(kind: UploadKind, page: 'start' | 'job') {
  const t = await getTranslations('Uploads');
  return { title: t(`meta.${kind}.${page}`) };
}

/** The upload page of a kind: the file form and the latest uploads. */
export async function UploadStartPage({ kind, session }: { kind: UploadKind; session: DashboardSession }) {
  const jobs = await listUploadJobs(getDb(), { businessId: session.businessId, mode: session.mode, kind });
  const [t, shell] = await Promise.all([getTranslations('Uploads'), getTranslations('Shell')]);
  return (
    <>
      <PageHeader
        back={{ href: BACK[kind], label: t(`kinds.${kind}.back`) }}
        title={t(`kinds.${kind}.title`)}
        description={t(`kinds.${kind}.description`, { mode: shell(`modes.${session.mode}`) })}
      />
      <UploadForm kind={kind} columns={UPLOAD_KINDS[kind].columns} maxRows={MAX_UPLOAD_ROWS} maxMegabytes={MAX_UPLOAD_BYTES / (1024 * 1024)} />
      {jobs.length > 0 && (
        <section aria-labelledby="recent-uploads" className="mt-8 max-w-xl">
          <h2 id="recent-uploads" className="text-lg font-semibold text-slate-900">
            {t('latest')}
          </h2>
          <ul className="mt-2 divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
            {jobs.map((j) => (
              <li key={j.reference} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                <Link href={`/${kind}/upload/${j.reference}`} className="font-medium break-all text-emerald-800 underline underline-offset-2">
                  {j.fileName}
                </Link>
                <span className="flex items-center gap-2 text-slate-600">
                  {t('rowCount', { count: j.rowCount })} · <LocalTime iso={j.createdAt.toISOString()} />{' '}
                  <StatusBadge status={j.status.replace('_', ' ')} label={t(`statuses.${j.status}`)} />
                </span>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}

/** One upload: its preview, progress and results. Another business's, or the other mode's, is not found. */
export async function UploadJobPage({ kind, reference, session }: { kind: UploadKind; reference: string; session: DashboardSession }) {
  const job = await getUploadJob(getDb(), { businessId: session.businessId, mode: session.mode, kind, reference }).catch((err) => {
    if (err instanceof ServiceError && err.code === 'not_found') notFound();
    throw err;
  });
  const t = await getTranslations('Uploads');
  return (
    <>
      <PageHeader
        back={{ href: `/${kind}/upload`, label: t(`kinds.${kind}.title`) }}
        title={job.fileName}
        description={t('jobDescription', { reference: job.reference })}
      />
      <UploadJob initial={job} userId={session.userId} canApprove={can(session.role, 'money:approve')} />
    </>
  );
}
