import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { LocalTime } from '@/components/ui/local-time';
import { EmptyState, PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { StatusBadge } from '@/components/ui/status-badge';
import { getDb } from '@/lib/db/client';
import { MESSAGE_KINDS, MESSAGE_STATUSES } from '@/lib/messages/message-kinds';
import { listBusinessMessages } from '@/lib/messages/list-messages';
import { isCalendarDay, nextDay, zonedDayStart } from '@/lib/time-zone';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Messages');
  return { title: t('metaTitle') };
}

const PAGE_SIZE = 25;
const control =
  'mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-3 focus-visible:outline-emerald-700';

type Search = { status?: string; kind?: string; from?: string; to?: string; phone?: string; page?: string };

/** Every message to cardholders, for support: filtered by status, kind and period, searched by phone. */
export default async function MessagesPage({ searchParams }: { searchParams: Promise<Search> }) {
  const session = await requirePage('cards:read');
  const sp = await searchParams;
  const [t, card, kinds] = await Promise.all([getTranslations('Messages'), getTranslations('Card'), getTranslations('Settings')]);
  const status = MESSAGE_STATUSES.find((s) => s === sp.status);
  const kind = MESSAGE_KINDS.find((k) => k === sp.kind);
  const from = isCalendarDay(sp.from) ? sp.from : undefined;
  const to = isCalendarDay(sp.to) ? sp.to : undefined;
  const phone = sp.phone?.trim().slice(0, 40) || undefined;
  const pageNo = Math.max(1, Math.min(1_000_000, Number.parseInt(sp.page ?? '1', 10) || 1));
  const list = await listBusinessMessages(getDb(), {
    businessId: session.businessId,
    mode: session.mode,
    filters: {
      status,
      kind,
      from: from ? zonedDayStart(from, session.timeZone) : undefined,
      to: to ? zonedDayStart(nextDay(to), session.timeZone) : undefined,
      to_address: phone,
    },
    page: { limit: PAGE_SIZE, offset: (pageNo - 1) * PAGE_SIZE, page: pageNo },
  });
  const filters = { status, kind, from, to, phone };
  const filtered = Object.values(filters).some(Boolean);
  const href = (page: number) => {
    const params = new URLSearchParams(Object.entries({ ...filters, page: page > 1 ? String(page) : undefined }).filter((e): e is [string, string] => !!e[1]));
    const s = params.toString();
    return s ? `/messages?${s}` : '/messages';
  };
  return (
    <>
      <PageHeader title={t('title')} description={t('intro')} />
      <form
        method="get"
        action="/messages"
        className="mb-4 grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-3 lg:grid-cols-6 sm:items-end"
      >
        <div>
          <label htmlFor="messages-status" className="block text-sm font-medium text-slate-800">
            {t('status')}
          </label>
          <select id="messages-status" name="status" defaultValue={status ?? ''} className={control}>
            <option value="">{t('any')}</option>
            {MESSAGE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {card(`messageStatuses.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="messages-kind" className="block text-sm font-medium text-slate-800">
            {t('kind')}
          </label>
          <select id="messages-kind" name="kind" defaultValue={kind ?? ''} className={control}>
            <option value="">{t('any')}</option>
            {MESSAGE_KINDS.map((k) => (
              <option key={k} value={k}>
                {kinds(`messageKinds.${k}`)}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="messages-from" className="block text-sm font-medium text-slate-800">
            {t('from')}
          </label>
          <input id="messages-from" type="date" name="from" defaultValue={from ?? ''} className={control} />
        </div>
        <div>
          <label htmlFor="messages-to" className="block text-sm font-medium text-slate-800">
            {t('to')}
          </label>
          <input id="messages-to" type="date" name="to" defaultValue={to ?? ''} className={control} />
        </div>
        <div>
          <label htmlFor="messages-phone" className="block text-sm font-medium text-slate-800">
            {t('phone')}
          </label>
          <input id="messages-phone" type="search" name="phone" defaultValue={phone ?? ''} inputMode="tel" className={control} />
        </div>
        <div className="flex gap-2">
          <Button type="submit" className="flex-1">
            {t('filter')}
          </Button>
          {filtered && (
            <LinkButton href="/messages" variant="secondary">
              {t('clear')}
            </LinkButton>
          )}
        </div>
      </form>
      {list.items.length === 0 ? (
        <EmptyState title={filtered ? t('emptyFiltered') : t('empty')} />
      ) : (
        <>
          <p className="mb-2 text-sm font-medium text-slate-800" data-testid="messages-count">
            {t('count', { count: list.total })}
          </p>
          <ul className="divide-y divide-slate-100 rounded-xl bg-white px-4 shadow-sm ring-1 ring-slate-200" data-testid="messages-list">
            {list.items.map((m) => (
              <li key={m.message_reference} className="py-3 text-sm">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-600">
                  <LocalTime iso={m.created_at} />
                  <span className="font-medium text-slate-900">{kinds(`messageKinds.${m.kind}`)}</span>
                  <span>
                    {m.channel === 'sms' ? card('channelSms') : card('channelEmail')} {m.to}
                  </span>
                  {m.card_number && (
                    <Link href={`/cards/${m.card_number}`} className="underline underline-offset-2">
                      {t('card', { last4: m.card_number.slice(-4) })}
                    </Link>
                  )}
                  {m.order_reference && (
                    <Link href={`/shop-orders/${m.order_reference}`} className="underline underline-offset-2" data-testid="message-order">
                      {t('order')}
                    </Link>
                  )}
                  <StatusBadge status={m.status} label={card(`messageStatuses.${m.status}`)} />
                </div>
                {m.text && <p className="mt-1 break-words text-slate-800">{m.text}</p>}
                {m.error && <p className="mt-1 break-words text-red-700">{m.error}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
      <Pager
        label={t('pages')}
        prev={pageNo > 1 ? { href: href(pageNo - 1), label: t('newer') } : null}
        next={pageNo < list.pages ? { href: href(pageNo + 1), label: t('older') } : null}
      />
    </>
  );
}
