import Link from 'next/link';
import { forbidden } from 'next/navigation';
import { getLocale, getTranslations } from 'next-intl/server';
import { ApprovalDecision } from '@/components/approvals/approval-decision';
import { ThresholdForm } from '@/components/approvals/threshold-form';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { EmptyState, PageHeader, Panel } from '@/components/ui/page-header';
import { approvalThresholdsOf } from '@/lib/approvals/approval-thresholds';
import { type ApprovalListItem, listApprovals } from '@/lib/approvals/list-approvals';
import { can } from '@/lib/auth/permissions';
import { getDb } from '@/lib/db/client';
import { isLocale, type Locale } from '@/lib/i18n/locale';
import { CURRENCIES } from '@/lib/validation';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Approvals');
  return { title: t('metaTitle') };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_TONE: Record<string, string> = {
  awaiting_approval: 'bg-amber-100 text-amber-900',
  approved: 'bg-emerald-100 text-emerald-900',
  rejected: 'bg-slate-200 text-slate-800',
  withdrawn: 'bg-slate-200 text-slate-800',
  expired: 'bg-slate-200 text-slate-800',
  failed: 'bg-red-100 text-red-900',
};

type Words = Awaited<ReturnType<typeof getTranslations<'Approvals'>>>;

/** An upload in several currencies has no one total: its page shows them per currency. */
const money = (t: Words, locale: Locale, amount: number, currency: ApprovalListItem['currency']) =>
  currency ? formatMoney(amount, currency, locale) : t('severalCurrencies');

function why(t: Words, r: ApprovalListItem): string | null {
  const reason = r.reasonCode && t.has(`reasons.${r.reasonCode}`) ? t(`reasons.${r.reasonCode}`) : null;
  return [reason, r.note].filter(Boolean).join(': ') || null;
}

function RequestCard({ r, userId, canApprove, t, locale }: { r: ApprovalListItem; userId: number; canApprove: boolean; t: Words; locale: Locale }) {
  const hours = Math.max(0, Math.round((new Date(r.expiresAt).getTime() - Date.now()) / 3_600_000));
  const reason = why(t, r);
  const waiting = r.status === 'awaiting_approval';
  const isMaker = r.makerUserId === userId;
  return (
    <li className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="approval-request" data-reference={r.reference}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{t(`subject.${r.subject.key}`, r.subject.args)}</p>
          <p className="text-sm text-slate-600">
            {r.cardNumber ? (
              <>
                {r.kind === 'payout' ? t('fromCard') : t('card')}{' '}
                <Link href={`/cards/${r.cardNumber}`} className="font-medium underline underline-offset-2">
                  {t('ending', { last4: r.cardNumber.slice(-4) })}
                </Link>
              </>
            ) : (
              <Link href={`/payouts/upload/${r.uploadReference}`} className="font-medium underline underline-offset-2">
                {t('itsRows')}
              </Link>
            )}{' '}
            · <span className="font-mono text-xs">{r.reference}</span>
          </p>
        </div>
        <div className="text-right">
          <p className="text-xl font-semibold tabular-nums text-slate-900" data-testid="approval-amount">
            {money(t, locale, r.amount, r.currency)}
          </p>
          {r.held !== r.amount && r.currency && (
            <p className="text-xs text-slate-600">{t('heldWithFee', { amount: formatMoney(r.held, r.currency, locale) })}</p>
          )}
        </div>
      </div>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-slate-600">{t('askedBy')} </dt>
          <dd className="inline font-medium text-slate-900">{r.maker ?? t('removedMember')}</dd>
        </div>
        <div>
          <dt className="inline text-slate-600">{t('asked')} </dt>
          <dd className="inline">
            <LocalTime iso={r.createdAt} />
          </dd>
        </div>
        {reason && (
          <div className="sm:col-span-2">
            <dt className="inline text-slate-600">{t('why')} </dt>
            <dd className="inline [overflow-wrap:anywhere]">{reason}</dd>
          </div>
        )}
        {waiting ? (
          <div>
            <dt className="inline text-slate-600">{t('expires')} </dt>
            <dd className="inline">{hours >= 1 ? t('expiresInHours', { hours }) : t('expiresWithinHour')}</dd>
          </div>
        ) : (
          <>
            <div>
              <dt className="inline text-slate-600">{t('status')} </dt>
              <dd className="inline" data-testid="approval-status">
                <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONE[r.status]}`}>{t(`statuses.${r.status}`)}</span>
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-600">{t('decided')} </dt>
              <dd className="inline">
                {r.decidedBy ?? '—'}
                {r.decidedAt && (
                  <>
                    {', '}
                    <LocalTime iso={r.decidedAt} />
                  </>
                )}
              </dd>
            </div>
            {r.decisionNote && (
              <div className="sm:col-span-2">
                <dt className="inline text-slate-600">{t('note')} </dt>
                <dd className="inline [overflow-wrap:anywhere]">{r.decisionNote}</dd>
              </div>
            )}
            {r.failureReason && (
              <div className="sm:col-span-2">
                <dt className="inline text-slate-600">{t('whyFailed')} </dt>
                <dd className="inline text-red-800">{r.failureReason}</dd>
              </div>
            )}
            {r.resultReference && r.kind === 'payout' && (
              <div className="sm:col-span-2">
                <dt className="inline text-slate-600">{t('payout')} </dt>
                <dd className="inline">
                  <Link href={`/payouts/${r.resultReference}`} className="font-mono text-xs underline underline-offset-2">
                    {r.resultReference}
                  </Link>
                </dd>
              </div>
            )}
          </>
        )}
      </dl>
      {waiting && (
        <div className="mt-3 border-t border-slate-100 pt-3">
          <ApprovalDecision reference={r.reference} canDecide={canApprove && !isMaker} isMaker={isMaker} />
        </div>
      )}
    </li>
  );
}

export default async function ApprovalsPage({ searchParams }: Props) {
  const session = await requirePage();
  const canApprove = can(session.role, 'money:approve');
  const canMove = can(session.role, 'money:move');
  if (!canApprove && !canMove) forbidden();
  const query = await searchParams;
  const t = await getTranslations('Approvals');
  const asked = await getLocale();
  const locale: Locale = isLocale(asked) ? asked : 'en';
  const view = query.view === 'decided' ? 'decided' : 'waiting';
  const db = getDb();
  const scope = { businessId: session.businessId, mode: session.mode };
  const [items, thresholds] = await Promise.all([
    listApprovals(db, { ...scope, view, limit: 100 }),
    approvalThresholdsOf(db, session.businessId, session.mode),
  ]);
  const one = async (key: string) => {
    const reference = query[key];
    return typeof reference === 'string' && reference.length <= 64 ? (await listApprovals(db, { ...scope, view: { reference }, limit: 1 }))[0] : undefined;
  };
  const [requested, decided] = await Promise.all([one('requested'), one('decided')]);
  const tab = (v: 'waiting' | 'decided', label: string) => (
    <Link
      href={v === 'waiting' ? '/approvals' : '/approvals?view=decided'}
      aria-current={view === v ? 'page' : undefined}
      className={`inline-flex min-h-11 items-center rounded-lg px-4 py-2 text-sm font-semibold ${view === v ? 'bg-emerald-700 text-white' : 'text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100'}`}
    >
      {label}
    </Link>
  );

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      {requested && (
        <div className="mb-4">
          <Notice tone="success" testId="sent-for-approval">
            {t('sentForApproval', {
              what: t(`subjectInSentence.${requested.subject.key}`, requested.subject.args),
              amount: money(t, locale, requested.amount, requested.currency),
              held: money(t, locale, requested.held, requested.currency),
            })}
          </Notice>
        </div>
      )}
      {decided && decided.status !== 'awaiting_approval' && (
        <div className="mb-4">
          <Notice tone={decided.status === 'failed' ? 'error' : 'success'} testId="decision-outcome">
            {decided.status === 'approved' && t('outcome.approved', { reference: decided.resultReference ?? '' })}
            {decided.status === 'rejected' && t('outcome.rejected')}
            {decided.status === 'withdrawn' && t('outcome.withdrawn')}
            {decided.status === 'expired' && t('outcome.expired')}
            {decided.status === 'failed' && `${t('outcome.failed')} ${decided.failureReason ?? ''}`}
          </Notice>
        </div>
      )}
      <nav aria-label={t('lists')} className="mb-4 flex gap-2">
        {tab('waiting', t('waiting'))}
        {tab('decided', t('history'))}
      </nav>
      {items.length === 0 ? (
        <EmptyState title={view === 'waiting' ? t('nothingWaits') : t('noDecisions')} />
      ) : (
        <ul className="space-y-3">
          {items.map((r) => (
            <RequestCard key={r.reference} r={r} userId={session.userId} canApprove={canApprove} t={t} locale={locale} />
          ))}
        </ul>
      )}
      <div className="mt-6">
        <Panel title={t('thresholds')}>
          <p className="-mt-2 mb-3 text-sm text-slate-600">{t('thresholdsIntro')}</p>
          {can(session.role, 'team') ? (
            <div className="grid gap-3 sm:grid-cols-2">
              {CURRENCIES.map((c) => (
                <ThresholdForm key={c} currency={c} amount={thresholds[c]} />
              ))}
            </div>
          ) : (
            <ul className="grid gap-1 text-sm sm:grid-cols-2" data-testid="thresholds">
              {CURRENCIES.map((c) => (
                <li key={c}>
                  <span className="font-medium">{c}</span>: {thresholds[c] === null ? t('none') : formatMoney(thresholds[c], c, locale)}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}
