import Link from 'next/link';
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

const TITLES: Record<UploadKind, { title: string; back: { href: string; label: string }; description: string }> = {
  cards: { title: 'Upload cards', back: { href: '/cards', label: 'All cards' }, description: 'Issue many cards from a CSV file: one card per row.' },
  payouts: {
    title: 'Upload payouts',
    back: { href: '/payouts', label: 'All payouts' },
    description: 'Pay out from your cards from a CSV file: one payout per row, fees as your fee schedule sets them.',
  },
};

/** The upload page of a kind: the file form and the latest uploads. */
export async function UploadStartPage({ kind, session }: { kind: UploadKind; session: DashboardSession }) {
  const jobs = await listUploadJobs(getDb(), { businessId: session.businessId, mode: session.mode, kind });
  const t = TITLES[kind];
  return (
    <>
      <PageHeader back={t.back} title={t.title} description={`${t.description} In ${session.mode} mode.`} />
      <UploadForm kind={kind} columns={UPLOAD_KINDS[kind].columns} maxRows={MAX_UPLOAD_ROWS} maxMegabytes={MAX_UPLOAD_BYTES / (1024 * 1024)} />
      {jobs.length > 0 && (
        <section aria-labelledby="recent-uploads" className="mt-8 max-w-xl">
          <h2 id="recent-uploads" className="text-lg font-semibold text-slate-900">
            Latest uploads
          </h2>
          <ul className="mt-2 divide-y divide-slate-200 rounded-xl bg-white ring-1 ring-slate-200">
            {jobs.map((j) => (
              <li key={j.reference} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
                <Link href={`/${kind}/upload/${j.reference}`} className="font-medium break-all text-emerald-800 underline underline-offset-2">
                  {j.fileName}
                </Link>
                <span className="flex items-center gap-2 text-slate-600">
                  {j.rowCount} rows · <LocalTime iso={j.createdAt.toISOString()} /> <StatusBadge status={j.status.replace('_', ' ')} />
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
  return (
    <>
      <PageHeader back={{ href: `/${kind}/upload`, label: TITLES[kind].title }} title={job.fileName} description={`Upload ${job.reference}`} />
      <UploadJob initial={job} userId={session.userId} canApprove={can(session.role, 'money:approve')} />
    </>
  );
}
