import Link from 'next/link';
import { forbidden } from 'next/navigation';
import { ApprovalDecision } from '@/components/approvals/approval-decision';
import { ThresholdForm } from '@/components/approvals/threshold-form';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { EmptyState, PageHeader, Panel } from '@/components/ui/page-header';
import { ADJUSTMENT_REASON_LABELS, type AdjustmentReason } from '@/lib/adjustments/adjustment-reasons';
import { approvalThresholdsOf } from '@/lib/approvals/approval-thresholds';
import { type ApprovalListItem, listApprovals } from '@/lib/approvals/list-approvals';
import { can } from '@/lib/auth/permissions';
import { getDb } from '@/lib/db/client';
import { CURRENCIES } from '@/lib/validation';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Approvals · Gift cards' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_WORDS: Record<string, string> = {
  awaiting_approval: 'awaiting approval',
  approved: 'approved',
  rejected: 'rejected',
  withdrawn: 'withdrawn',
  expired: 'expired',
  failed: 'failed',
};
const STATUS_TONE: Record<string, string> = {
  awaiting_approval: 'bg-amber-100 text-amber-900',
  approved: 'bg-emerald-100 text-emerald-900',
  rejected: 'bg-slate-200 text-slate-800',
  withdrawn: 'bg-slate-200 text-slate-800',
  expired: 'bg-slate-200 text-slate-800',
  failed: 'bg-red-100 text-red-900',
};

function expiresIn(iso: string): string {
  const hours = Math.max(0, Math.round((new Date(iso).getTime() - Date.now()) / 3_600_000));
  return hours >= 1 ? `in ${hours} h` : 'within the hour';
}

/** An upload in several currencies has no one total: its page shows them per currency. */
const money = (amount: number, currency: ApprovalListItem['currency']) => (currency ? formatMoney(amount, currency) : 'several currencies');

function why(r: ApprovalListItem): string | null {
  const reason = r.reasonCode ? ADJUSTMENT_REASON_LABELS[r.reasonCode as AdjustmentReason] : null;
  return [reason, r.note].filter(Boolean).join(': ') || null;
}

function RequestCard({ r, userId, canApprove }: { r: ApprovalListItem; userId: number; canApprove: boolean }) {
  const waiting = r.status === 'awaiting_approval';
  const isMaker = r.makerUserId === userId;
  return (
    <li className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200" data-testid="approval-request" data-reference={r.reference}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-semibold text-slate-900 [overflow-wrap:anywhere]">{r.what}</p>
          <p className="text-sm text-slate-600">
            {r.cardNumber ? (
              <>
                {r.kind === 'payout' ? 'From card' : 'Card'}{' '}
                <Link href={`/cards/${r.cardNumber}`} className="font-medium underline underline-offset-2">
                  ending {r.cardNumber.slice(-4)}
                </Link>
              </>
            ) : (
              <Link href={`/payouts/upload/${r.uploadReference}`} className="font-medium underline underline-offset-2">
                Its rows
              </Link>
            )}{' '}
            · <span className="font-mono text-xs">{r.reference}</span>
          </p>
        </div>
        <div className="text-right">
          <p className="text-xl font-semibold tabular-nums text-slate-900" data-testid="approval-amount">
            {money(r.amount, r.currency)}
          </p>
          {r.held !== r.amount && r.currency && <p className="text-xs text-slate-600">{formatMoney(r.held, r.currency)} held, fee included</p>}
        </div>
      </div>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline text-slate-600">Asked by </dt>
          <dd className="inline font-medium text-slate-900">{r.maker}</dd>
        </div>
        <div>
          <dt className="inline text-slate-600">Asked </dt>
          <dd className="inline">
            <LocalTime iso={r.createdAt} />
          </dd>
        </div>
        {why(r) && (
          <div className="sm:col-span-2">
            <dt className="inline text-slate-600">Why </dt>
            <dd className="inline [overflow-wrap:anywhere]">{why(r)}</dd>
          </div>
        )}
        {waiting ? (
          <div>
            <dt className="inline text-slate-600">Expires </dt>
            <dd className="inline">{expiresIn(r.expiresAt)}, then the money is released</dd>
          </div>
        ) : (
          <>
            <div>
              <dt className="inline text-slate-600">Status </dt>
              <dd className="inline" data-testid="approval-status">
                <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold ${STATUS_TONE[r.status]}`}>{STATUS_WORDS[r.status]}</span>
              </dd>
            </div>
            <div>
              <dt className="inline text-slate-600">Decided </dt>
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
                <dt className="inline text-slate-600">Note </dt>
                <dd className="inline [overflow-wrap:anywhere]">{r.decisionNote}</dd>
              </div>
            )}
            {r.failureReason && (
              <div className="sm:col-span-2">
                <dt className="inline text-slate-600">Why it failed </dt>
                <dd className="inline text-red-800">{r.failureReason}</dd>
              </div>
            )}
            {r.resultReference && r.kind === 'payout' && (
              <div className="sm:col-span-2">
                <dt className="inline text-slate-600">Payout </dt>
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
      <PageHeader
        title="Approvals"
        description="Payouts and refunds at or above the approval threshold, and every manual adjustment, wait here, their money held, until a teammate other than the one who asked approves or rejects them. After 72 hours they expire and the money is released."
      />
      {requested && (
        <div className="mb-4">
          <Notice tone="success" testId="sent-for-approval">
            Sent for approval: {requested.what.charAt(0).toLowerCase() + requested.what.slice(1)} of {money(requested.amount, requested.currency)}.{' '}
            {money(requested.held, requested.currency)} is held on the card until a teammate decides; nothing has been paid yet.
          </Notice>
        </div>
      )}
      {decided && decided.status !== 'awaiting_approval' && (
        <div className="mb-4">
          <Notice tone={decided.status === 'failed' ? 'error' : 'success'} testId="decision-outcome">
            {decided.status === 'approved' && `Approved: done as ${decided.resultReference}.`}
            {decided.status === 'rejected' && 'Rejected: its money was released.'}
            {decided.status === 'withdrawn' && 'Withdrawn: its money was released.'}
            {decided.status === 'expired' && 'It had expired: its money was released.'}
            {decided.status === 'failed' && `Approved, but it could not be done, so its money was released. ${decided.failureReason ?? ''}`}
          </Notice>
        </div>
      )}
      <nav aria-label="Approval lists" className="mb-4 flex gap-2">
        {tab('waiting', 'Waiting')}
        {tab('decided', 'History')}
      </nav>
      {items.length === 0 ? (
        <EmptyState title={view === 'waiting' ? 'Nothing waits for approval' : 'No decisions yet'} />
      ) : (
        <ul className="space-y-3">
          {items.map((r) => (
            <RequestCard key={r.reference} r={r} userId={session.userId} canApprove={canApprove} />
          ))}
        </ul>
      )}
      <div className="mt-6">
        <Panel title="Approval thresholds">
          <p className="-mt-2 mb-3 text-sm text-slate-600">
            A payout or refund sent from the dashboard at or above its currency’s threshold waits for approval; without one, they go at once. Manual adjustments
            always wait. The API’s payouts and refunds never do.
          </p>
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
                  <span className="font-medium">{c}</span>: {thresholds[c] === null ? 'none' : formatMoney(thresholds[c], c)}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>
    </>
  );
}
