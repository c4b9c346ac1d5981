import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { PageHeader } from '@/components/ui/page-header';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Reports');
  return { title: t('list.metaTitle') };
}

const REPORTS = ['statement', 'liability', 'reconciliation'] as const;

export default async function ReportsPage() {
  const session = await requirePage('reports:read');
  const [t, tShell, tTill] = await Promise.all([getTranslations('Reports'), getTranslations('Shell'), getTranslations('Till.branchReport')]);
  return (
    <>
      <PageHeader title={t('list.title')} description={t('list.intro', { mode: tShell(`modes.${session.mode}`) })} />
      <ul className="grid gap-4 md:grid-cols-3">
        {REPORTS.map((r) => (
          <li key={r} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
            <h2 className="text-base font-semibold text-slate-900">
              <Link href={`/reports/${r}`} className="underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-700">
                {t(`list.${r}.title`)}
              </Link>
            </h2>
            <p className="mt-2 text-sm text-slate-600">{t(`list.${r}.text`)}</p>
          </li>
        ))}
        <li className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-slate-200">
          <h2 className="text-base font-semibold text-slate-900">
            <Link href="/reports/till" className="underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-emerald-700">
              {tTill('title')}
            </Link>
          </h2>
          <p className="mt-2 text-sm text-slate-600">{tTill('intro')}</p>
        </li>
      </ul>
    </>
  );
}
