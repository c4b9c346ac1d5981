import Link from 'next/link';
import { notFound } from 'next/navigation';
import { cardStatusLabel } from '@/components/cards/card-status-label';
import { CardStatusActions } from '@/components/cards/card-status-actions';
import { CardTimelineTable } from '@/components/cards/card-timeline-table';
import { TopUpFormView } from '@/components/cards/top-up-form';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { EmptyState, PageHeader, Panel } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';
import { cardTimeline } from '@/lib/dashboard/card-timeline';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';

export const metadata = { title: 'Card · Gift cards' };

type Props = { params: Promise<{ card_number: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function CardPage({ params, searchParams }: Props) {
  const session = await requirePage('cards:read');
  const { card_number } = await params;
  const query = await searchParams;
  const before = typeof query.before === 'string' && /^\d{1,15}$/.test(query.before) ? Number(query.before) : undefined;
  const timeline = await cardTimeline(getDb(), {
    businessId: session.businessId,
    mode: session.mode,
    cardNumber: decodeURIComponent(card_number),
    before,
    limit: 50,
  }).catch((err) => {
    if (err instanceof ServiceError && (err.code === 'card_not_found' || err.code === 'invalid_card_number')) notFound();
    throw err;
  });
  const { card, entries } = timeline;
  const balance = Number(card.balance);
  const status = cardStatusLabel(card);
  const movesMoney = can(session.role, 'money:move');
  const canChangeStatus = can(session.role, 'cards:status');
  const canCancel = can(session.role, 'cards:cancel');

  return (
    <>
      <Link href="/cards" className="text-sm font-medium text-slate-700 underline-offset-2 hover:underline">
        ← Cards
      </Link>
      <div className="mt-2">
        <PageHeader
          title={`Card ${card.card_number.replace(/(\d{4})(?=\d)/g, '$1 ')}`}
          description={`${card.currency} gift card in ${session.mode} mode.`}
          actions={
            movesMoney && (
              <Link
                href={`/payouts/new?card=${card.card_number}`}
                className="inline-flex min-h-11 items-center rounded-lg px-4 py-2.5 font-semibold text-slate-800 ring-1 ring-slate-300 hover:bg-slate-100 focus-visible:outline-3 focus-visible:outline-emerald-700"
              >
                Send payout
              </Link>
            )
          }
        />
      </div>
      {query.created === '1' && (
        <div className="mb-4">
          <Notice tone="success">Card created.</Notice>
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-3">
        <Panel title="Holder">
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="text-slate-600">Name</dt>
              <dd className="font-medium text-slate-900" data-testid="holder-name">
                {[card.first_name, card.last_name].filter(Boolean).join(' ')}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">Phone</dt>
              <dd className="font-medium text-slate-900">{card.phone_number}</dd>
            </div>
            <div>
              <dt className="text-slate-600">Created</dt>
              <dd>
                <LocalTime iso={new Date(card.created_at).toISOString()} />
              </dd>
            </div>
          </dl>
        </Panel>
        <Panel title="Balance">
          <p className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="card-balance">
            {formatMoney(balance, card.currency)}
          </p>
          <p className="mt-2 flex items-center gap-2 text-sm text-slate-700">
            Status{' '}
            <span data-testid="card-status">
              <StatusBadge status={status} />
            </span>
            {card.disabled_by === 'provider' && <span className="text-xs">(by the provider)</span>}
          </p>
        </Panel>
        {(canChangeStatus || canCancel) && (
          <Panel title="Manage">
            <CardStatusActions
              cardNumber={card.card_number}
              active={status === 'active'}
              balance={balance}
              currency={card.currency}
              canChangeStatus={canChangeStatus}
              canCancel={canCancel}
            />
          </Panel>
        )}
      </div>

      {movesMoney && status === 'active' && (
        <div className="mt-4">
          <Panel title="Top up">
            <TopUpFormView cardNumber={card.card_number} currency={card.currency} businessBalance={timeline.businessBalance} />
          </Panel>
        </div>
      )}

      <div className="mt-4">
        <Panel title="Money movements">
          {entries.length === 0 ? <EmptyState title="No money has moved on this card yet" /> : <CardTimelineTable entries={entries} currency={card.currency} />}
          {(before !== undefined || timeline.olderBefore !== null) && (
            <nav aria-label="Movement pages" className="mt-3 flex justify-between text-sm">
              {before !== undefined ? (
                <Link href={`/cards/${card.card_number}`} className="font-medium underline underline-offset-2">
                  Newest
                </Link>
              ) : (
                <span />
              )}
              {timeline.olderBefore !== null && (
                <Link href={`/cards/${card.card_number}?before=${timeline.olderBefore}`} className="font-medium underline underline-offset-2">
                  Older movements
                </Link>
              )}
            </nav>
          )}
        </Panel>
      </div>
    </>
  );
}
