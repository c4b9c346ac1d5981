import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { cardStatusLabel } from '@/lib/cards/card-status';
import { CardStatusActions } from '@/components/cards/card-status-actions';
import { CorrectPhoneAction } from '@/components/cards/correct-phone-action';
import { CardStoryTable } from '@/components/cards/card-timeline-table';
import { ExtendExpiryForm } from '@/components/cards/extend-expiry-form';
import { RedeemFormView } from '@/components/cards/redeem-form';
import { TopUpFormView } from '@/components/cards/top-up-form';
import { AdjustmentFormView } from '@/components/approvals/adjustment-form';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { EmptyState, PageHeader, Panel } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { can } from '@/lib/auth/permissions';
import { pathParam } from '@/server/path-param';
import { requirePage } from '@/server/session';
import { cardStory, parseStoryCursor } from '@/lib/dashboard/card-story';
import { dayIn } from '@/lib/time-zone';
import { getDb } from '@/lib/db/client';
import { formatDay } from '@/lib/i18n/date-text';
import { dateSettingsOf } from '@/server/date-settings';
import { ServiceError } from '@/lib/errors';
import { LinkButton } from '@/components/ui/link-button';

export async function generateMetadata() {
  const t = await getTranslations('Card');
  return { title: t('metaTitle') };
}

type Props = { params: Promise<{ card_number: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function CardPage({ params, searchParams }: Props) {
  const session = await requirePage('cards:read');
  const { card_number } = await params;
  const query = await searchParams;
  const [dates, t, shell, nav] = await Promise.all([dateSettingsOf(session), getTranslations('Card'), getTranslations('Shell'), getTranslations('Nav')]);
  const money = (minor: number) => formatMoney(minor, card.currency, dates.locale);
  const before = typeof query.before === 'string' && parseStoryCursor(query.before) ? query.before : undefined;
  const story = await cardStory(getDb(), {
    businessId: session.businessId,
    mode: session.mode,
    cardNumber: pathParam(card_number),
    before,
    limit: 50,
    timeZone: session.timeZone,
  }).catch((err) => {
    if (err instanceof ServiceError && (err.code === 'card_not_found' || err.code === 'invalid_card_number')) notFound();
    throw err;
  });
  const { card, events, state } = story;
  const balance = Number(card.balance);
  const status = cardStatusLabel(card);
  const live = state !== 'cancelled' && state !== 'expired';
  const canExtend = live && card.expires_at !== null && can(session.role, 'cards:expiry');
  const movesMoney = live && can(session.role, 'money:move');
  const canChangeStatus = live && can(session.role, 'cards:status');
  const canCancel = live && can(session.role, 'cards:cancel');
  const byProvider = state === 'disabled' && story.disabled?.by === 'provider';

  return (
    <>
      <PageHeader
        back={{ href: '/cards', label: nav('pages.cards') }}
        title={t('title', { number: card.card_number.replace(/(\d{4})(?=\d)/g, '$1 ') })}
        description={t('description', { currency: card.currency, mode: shell(`modes.${session.mode}`) })}
        actions={
          <>
            {can(session.role, 'history:read') && (
              <LinkButton href={`/payouts?q=${card.card_number}`} variant="secondary" size="md">
                {t('payoutsOfCard')}
              </LinkButton>
            )}
            {movesMoney && state === 'active' && (
              <LinkButton href={`/payouts/new?card=${card.card_number}`} variant="secondary" size="md">
                {t('sendPayout')}
              </LinkButton>
            )}
          </>
        }
      />
      {query.created === '1' && (
        <div className="mb-4">
          <Notice tone="success">{t('created')}</Notice>
        </div>
      )}
      {story.cancelled && (
        <div className="mb-4" data-testid="cancelled-banner">
          <Notice tone="info">
            <p className="font-semibold">{t('cancelledTitle')}</p>
            <p className="mt-1">
              Cancelled <LocalTime iso={story.cancelled.at} />
              {story.cancelled.actor && ` by ${story.cancelled.actor}`}.{' '}
              {story.cancelled.movedToBusiness === null
                ? `Its balance moved to your business’s ${card.currency} account.`
                : story.cancelled.movedToBusiness > 0
                  ? `Its remaining balance of ${formatMoney(story.cancelled.movedToBusiness, card.currency)} moved to your business’s ${card.currency} account.`
                  : 'It held no money when it was cancelled.'}
            </p>
          </Notice>
        </div>
      )}
      {state === 'expired' && card.expired_at && (
        <div className="mb-4" data-testid="expired-banner">
          <Notice tone="info">
            <p className="font-semibold">{t('expiredTitle')}</p>
            <p className="mt-1">
              It expired at the end of {card.expires_at ? formatDay(new Date(card.expires_at), dates) : 'its last day'} (swept{' '}
              <LocalTime iso={new Date(card.expired_at).toISOString()} />
              ). Whatever it held became breakage in your business’s {card.currency} breakage account.
            </p>
          </Notice>
        </div>
      )}
      <div className="grid gap-4 lg:grid-cols-3">
        <Panel title={t('holder')}>
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="text-slate-600">{t('name')}</dt>
              <dd className="font-medium text-slate-900" data-testid="holder-name">
                {[card.first_name, card.last_name].filter(Boolean).join(' ') || t('noName')}
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">{t('phone')}</dt>
              <dd className="font-medium text-slate-900" data-testid="holder-phone">
                {card.phone_number}
              </dd>
            </div>
            {canChangeStatus && (
              <div className="pt-1">
                <CorrectPhoneAction cardNumber={card.card_number} phone={card.phone_number} />
              </div>
            )}
            <div>
              <dt className="text-slate-600">{t('createdAt')}</dt>
              <dd>
                <LocalTime iso={new Date(card.created_at).toISOString()} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-600">{state === 'expired' ? t('expired') : t('expires')}</dt>
              <dd className="font-medium text-slate-900" data-testid="card-expiry">
                {card.expires_at ? t('endOf', { day: formatDay(new Date(card.expires_at), dates) }) : t('never')}
              </dd>
            </div>
          </dl>
        </Panel>
        <Panel title={t('balance')}>
          <p className="text-3xl font-semibold tabular-nums text-slate-900" data-testid="card-balance">
            {money(balance)}
          </p>
          {Number(card.held) > story.tillHeld && (
            <p className="mt-1 text-sm text-slate-700" data-testid="card-held">
              Available now. Another {formatMoney(Number(card.held) - story.tillHeld, card.currency)} is held until a teammate decides on it
              {can(session.role, 'money:approve') || can(session.role, 'money:move') ? (
                <>
                  {' '}
                  (see{' '}
                  <Link href="/approvals" className="font-medium underline underline-offset-2">
                    Approvals
                  </Link>
                  )
                </>
              ) : null}
              .
            </p>
          )}
          {story.tillHeld > 0 && (
            <p className="mt-1 text-sm text-slate-700" data-testid="card-till-held">
              {Number(card.held) > story.tillHeld ? '' : 'Available now. '}Another {formatMoney(story.tillHeld, card.currency)} is held by a till until it is
              captured, voided or expires.
            </p>
          )}
          <p className="mt-2 flex items-center gap-2 text-sm text-slate-700">
            {t('status')}{' '}
            <span data-testid="card-status">
              <StatusBadge status={status} label={t(`statuses.${status}`)} />
            </span>
            {byProvider && <span className="text-xs">{t('byProvider')}</span>}
          </p>
          {state === 'disabled' && story.disabled && (
            <div className="mt-3 text-sm text-slate-700" data-testid="disabled-why">
              {byProvider ? (
                <p>
                  The provider disabled this card
                  {story.disabled.at && (
                    <>
                      {' '}
                      on <LocalTime iso={story.disabled.at} />
                    </>
                  )}
                  . Only the provider can enable it again: contact the provider’s support.
                  {story.disabled.reason && ` Reason given: ${story.disabled.reason}`}
                </p>
              ) : (
                <p>
                  Disabled
                  {story.disabled.actor && ` by ${story.disabled.actor}`}
                  {story.disabled.at && (
                    <>
                      {' '}
                      on <LocalTime iso={story.disabled.at} />
                    </>
                  )}
                  .{story.disabled.reason && ` Reason: ${story.disabled.reason}`}
                </p>
              )}
            </div>
          )}
        </Panel>
        {((canChangeStatus && !byProvider) || canCancel) && (
          <Panel title={t('manage')}>
            <CardStatusActions
              cardNumber={card.card_number}
              active={state === 'active'}
              disabledByProvider={byProvider}
              balance={balance}
              currency={card.currency}
              canChangeStatus={canChangeStatus}
              canCancel={canCancel}
            />
          </Panel>
        )}
      </div>

      {canExtend && card.expires_at && (
        <div className="mt-4">
          <Panel title={t('extendTitle')}>
            <p className="-mt-2 mb-3 text-sm text-slate-600">{t('extendIntro')}</p>
            <ExtendExpiryForm cardNumber={card.card_number} currentDay={dayIn(session.timeZone, new Date(card.expires_at))} />
          </Panel>
        </div>
      )}

      {movesMoney && state === 'active' && (
        <div className="mt-4">
          <Panel title={t('redeemTitle')}>
            <p className="-mt-2 mb-3 text-sm text-slate-600">{t('redeemIntro')}</p>
            <RedeemFormView cardNumber={card.card_number} currency={card.currency} />
          </Panel>
        </div>
      )}

      {movesMoney && state === 'active' && (
        <div className="mt-4">
          <Panel title={t('topUpTitle')}>
            <TopUpFormView cardNumber={card.card_number} currency={card.currency} businessBalance={story.businessBalance} />
          </Panel>
        </div>
      )}

      {movesMoney && (
        <div className="mt-4">
          <Panel title={t('adjustTitle')}>
            <p className="-mt-2 mb-3 text-sm text-slate-600">{t('adjustIntro')}</p>
            <AdjustmentFormView cardNumber={card.card_number} currency={card.currency} />
          </Panel>
        </div>
      )}

      <div className="mt-4">
        <Panel title={t('history')}>
          <p className="-mt-2 mb-2 text-sm text-slate-600">{t('historyIntro')}</p>
          {events.length === 0 ? <EmptyState title={t('nothingOlder')} /> : <CardStoryTable events={events} currency={card.currency} />}
          {(before !== undefined || story.older !== null) && (
            <nav aria-label={t('historyPages')} className="mt-3 flex justify-between text-sm">
              {before !== undefined ? (
                <Link href={`/cards/${card.card_number}`} className="font-medium underline underline-offset-2">
                  {t('newest')}
                </Link>
              ) : (
                <span />
              )}
              {story.older !== null && (
                <Link href={`/cards/${card.card_number}?before=${encodeURIComponent(story.older)}`} className="font-medium underline underline-offset-2">
                  {t('olderEvents')}
                </Link>
              )}
            </nav>
          )}
        </Panel>
      </div>
    </>
  );
}
