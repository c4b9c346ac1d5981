import { useLocale, useTranslations } from 'next-intl';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { StatusBadge } from '@/components/ui/status-badge';
import type { StoryEvent } from '@/lib/dashboard/card-story';
import type { CalendarChoice } from '@/lib/i18n/locale';
import { useStoryText } from './story-text';

function detailOf(e: StoryEvent, currency: string): string | null {
  if (e.kind === 'cancelled' && e.movedToBusiness !== null && e.movedToBusiness > 0) {
    return `Its remaining balance of ${formatMoney(e.movedToBusiness, currency)} moved to the business's ${currency} account.`;
  }
  if (e.kind === 'payment_started' && e.requested !== null) {
    return [`For ${formatMoney(e.requested, currency)}.`, e.detail].filter(Boolean).join(' ');
  }
  return e.detail;
}

/** The card's story, newest first: one line per event, a stacked card at phone width; days named in the reader's calendar. */
export function CardStoryTable({ events, currency, calendar }: { events: StoryEvent[]; currency: string; calendar: CalendarChoice }) {
  const t = useTranslations('Card');
  const story = useTranslations('CardStory');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const { english, say, actor } = useStoryText(currency, calendar);
  const money = (minor: number) => formatMoney(minor, currency, locale);
  /** The event's detail: lib's English sentence, or its phrases in the reader's language. */
  const detailSaid = (e: StoryEvent): string | null => {
    if (english) return detailOf(e, currency);
    if (e.kind === 'cancelled' && e.movedToBusiness !== null && e.movedToBusiness > 0) {
      return story('cancelledMoved', { amount: money(e.movedToBusiness), currency });
    }
    const parts = e.said.detail.map(say);
    if (e.kind === 'payment_started' && e.requested !== null) parts.unshift(story('forAmount', { amount: money(e.requested) }));
    return parts.length ? parts.join(' ') : null;
  };
  return (
    <>
      <table className="w-full text-sm" data-testid="card-story">
        <caption className="sr-only">{t('storyCaption')}</caption>
        <thead className="hidden text-left text-slate-700 md:table-header-group">
          <tr>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t('when')}
            </th>
            <th scope="col" className="py-2 pr-3 font-medium">
              {t('whatHappened')}
            </th>
            <th scope="col" className="py-2 pr-3 text-right font-medium">
              {t('amount')}
            </th>
            <th scope="col" className="py-2 text-right font-medium">
              {t('balanceAfter')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {events.map((e) => {
            const detail = detailSaid(e);
            return (
              <tr key={e.key} className="grid grid-cols-2 gap-x-3 gap-y-1 py-3 md:table-row md:py-0" data-testid="timeline-entry" data-kind={e.kind}>
                <td className="col-span-2 text-xs text-slate-600 md:w-44 md:py-2 md:pr-3 md:align-top md:text-sm">
                  <LocalTime iso={e.at} />
                </td>
                <td className="col-span-2 md:py-2 md:pr-3 md:align-top">
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    <span data-testid="story-title">{english ? e.title : say(e.said.title)}</span>
                    {e.paymentState && e.kind === 'payment_started' && <StatusBadge status={e.paymentState} label={story(`states.${e.paymentState}`)} />}
                    {e.holdState && <StatusBadge status={e.holdState} label={story(`states.${e.holdState}`)} />}
                  </p>
                  {detail && (
                    <p className="mt-0.5 text-slate-700" data-testid="story-detail">
                      {detail}
                    </p>
                  )}
                  {(e.actor || e.reference) && (
                    <p className="mt-0.5 text-xs text-slate-600">
                      {e.actor && <span data-testid="story-actor">{story('by', { actor: actor(e.actor) })}</span>}
                      {e.actor && e.reference && ' · '}
                      {e.reference && <span className="break-all font-mono">{e.reference}</span>}
                    </p>
                  )}
                </td>
                <td className={`tabular-nums md:py-2 md:pr-3 md:text-right md:align-top ${amountTone(e)}`}>
                  {e.amount !== null ? `${e.amount > 0 ? '+' : '−'}${formatMoney(Math.abs(e.amount), currency, locale)}` : ''}
                </td>
                <td className="text-right tabular-nums md:py-2 md:align-top">
                  {e.balanceAfter !== null && (
                    <>
                      <span className="text-xs text-slate-600 md:hidden">{t('balance')} </span>
                      {formatMoney(e.balanceAfter, currency, locale)}
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <TimeZoneNote className="mt-2" />
    </>
  );
}

function amountTone(e: StoryEvent): string {
  if (e.amount === null) return 'hidden md:table-cell';
  return e.amount > 0 ? 'text-emerald-800' : 'text-red-800';
}
