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
import { actorKey } from '@/components/cards/story-text';
import { ResendLinkButton } from '@/components/cards/card-messages';
import { listMessagesOfCard } from '@/lib/messages/list-messages';

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
  const said = await getTranslations('CardStory');
  /** Who did it: an email as it is, lib's fixed names in the reader's language. */
  const actor = (name: string) => {
    const known = dates.locale === 'en' ? undefined : actorKey(name);
    return known ? said(`actors.${known.key}`, { prefix: known.prefix }) : name;
  };
  const time = (iso: string) => () => <LocalTime iso={iso} />;
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
  const [messages, kinds] = await Promise.all([
    listMessagesOfCard(getDb(), { businessId: session.businessId, mode: session.mode, cardId: card.id, page: { limit: 20, offset: 0, page: 1 } }),
    getTranslations('Settings'),
  ]);
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
              {story.cancelled.actor
                ? said.rich('page.cancelledBy', { time: time(story.cancelled.at), actor: actor(story.cancelled.actor) })
                : said.rich('page.cancelled', { time: time(story.cancelled.at) })}{' '}
              {story.cancelled.movedToBusiness === null
                ? said('page.cancelledMovedAll', { currency: card.currency })
                : story.cancelled.movedToBusiness > 0
                  ? said('page.cancelledMoved', { amount: money(story.cancelled.movedToBusiness), currency: card.currency })
                  : said('page.cancelledEmpty')}
            </p>
          </Notice>
        </div>
      )}
      {state === 'expired' && card.expired_at && (
        <div className="mb-4" data-testid="expired-banner">
          <Notice tone="info">
            <p className="font-semibold">{t('expiredTitle')}</p>
            <p className="mt-1">
              {said.rich('page.expired', {
                day: card.expires_at ? formatDay(new Date(card.expires_at), dates) : said('terms.lastDay'),
                time: time(new Date(card.expired_at).toISOString()),
                currency: card.currency,
              })}
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
              {/* A second dd of the phone's group: a bare div inside a dl is not a definition list (axe). */}
              {canChangeStatus && (
                <dd className="pt-2">
                  <CorrectPhoneAction cardNumber={card.card_number} phone={card.phone_number} />
                </dd>
              )}
            </div>
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
              {can(session.role, 'money:approve') || can(session.role, 'money:move')
                ? said.rich('page.heldSee', {
                    amount: money(Number(card.held) - story.tillHeld),
                    link: (chunks) => (
                      <Link href="/approvals" className="font-medium underline underline-offset-2">
                        {chunks}
                      </Link>
                    ),
                  })
                : said('page.held', { amount: money(Number(card.held) - story.tillHeld) })}
            </p>
          )}
          {story.tillHeld > 0 && (
            <p className="mt-1 text-sm text-slate-700" data-testid="card-till-held">
              {Number(card.held) > story.tillHeld
                ? said('page.tillHeldToo', { amount: money(story.tillHeld) })
                : said('page.tillHeld', { amount: money(story.tillHeld) })}
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
                  {story.disabled.at ? said.rich('page.providerDisabledOn', { time: time(story.disabled.at) }) : said('page.providerDisabled')}
                  {story.disabled.reason && ` ${said('page.reasonGiven', { reason: story.disabled.reason })}`}
                </p>
              ) : (
                <p>
                  {said.rich(`page.disabled.${story.disabled.actor ? 'by' : 'anyone'}.${story.disabled.at ? 'on' : 'sometime'}`, {
                    actor: story.disabled.actor ? actor(story.disabled.actor) : '',
                    time: time(story.disabled.at ?? ''),
                  })}
                  {story.disabled.reason && ` ${said('said.reason', { reason: story.disabled.reason })}`}
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
        <Panel title={t('messagesTitle')}>
          <p className="-mt-2 mb-3 text-sm text-slate-600">{t('messagesIntro', { total: messages.total })}</p>
          {live && can(session.role, 'cards:status') && (
            <div className="mb-3">
              <ResendLinkButton cardNumber={card.card_number} hasEmail={Boolean(card.email)} />
            </div>
          )}
          {messages.items.length === 0 ? (
            <EmptyState title={t('noMessages')} />
          ) : (
            <ul className="divide-y divide-slate-100" data-testid="card-messages">
              {messages.items.map((m) => (
                <li key={m.message_reference} className="py-2 text-sm">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-600">
                    <LocalTime iso={m.created_at} />
                    <span className="font-medium text-slate-900">{kinds(`messageKinds.${m.kind}`)}</span>
                    <span>
                      {m.channel === 'sms' ? t('channelSms') : t('channelEmail')} {m.to}
                    </span>
                    <StatusBadge status={m.status} label={t(`messageStatuses.${m.status}`)} />
                  </div>
                  {m.text && <p className="mt-1 break-words text-slate-800">{m.text}</p>}
                  {m.error && <p className="mt-1 break-words text-red-700">{m.error}</p>}
                </li>
              ))}
            </ul>
          )}
        </Panel>
      </div>

      <div className="mt-4">
        <Panel title={t('history')}>
          <p className="-mt-2 mb-2 text-sm text-slate-600">{t('historyIntro')}</p>
          {events.length === 0 ? (
            <EmptyState title={t('nothingOlder')} />
          ) : (
            <CardStoryTable events={events} currency={card.currency} calendar={dates.calendar} />
          )}
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
