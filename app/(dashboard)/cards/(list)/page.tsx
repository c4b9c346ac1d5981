import Link from 'next/link';
import { getLocale, getTranslations } from 'next-intl/server';
import { CardsTable } from '@/components/cards/cards-table';
import { filterQuery } from '@/components/payouts-list/list-view';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { EmptyState, PageHeader } from '@/components/ui/page-header';
import { Pager } from '@/components/ui/pager';
import { can } from '@/lib/auth/permissions';
import { pageRead } from '@/server/read-your-writes';
import { requirePage } from '@/server/session';
import { MATCH_COUNT_CAP, parseCardFilters, searchCards } from '@/lib/dashboard/search-cards';

export async function generateMetadata() {
  const t = await getTranslations('Cards');
  return { title: t('metaTitle') };
}

const PAGE_SIZE = 25;

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
const cursor = (v: string | string[] | undefined) => {
  const s = one(v);
  return s && /^\d{1,15}$/.test(s) ? Number(s) : undefined;
};

export default async function CardsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const session = await requirePage('cards:read');
  const params = await searchParams;
  const [t, shell, locale] = await Promise.all([getTranslations('Cards'), getTranslations('Shell'), getLocale()]);
  const { query, status } = parseCardFilters(params);
  const q = query ?? '';
  const { value: result, lagMs } = await pageRead((db) =>
    searchCards(db, {
      businessId: session.businessId,
      mode: session.mode,
      country: session.country,
      query: q || undefined,
      status,
      after: cursor(params.after),
      before: cursor(params.before),
      limit: PAGE_SIZE,
      countMatches: true,
    }),
  );

  const link = (extra: Record<string, string>) => `/cards?${new URLSearchParams({ ...(q && { q }), ...(status && { status }), ...extra })}`;
  const cancelled = one(params.cancelled);
  const moved = cursor(params.moved);
  const movedCurrency = one(params.currency);
  const filtered = Boolean(q || status);
  // "12 active or disabled cards" unfiltered (cancelled ones are listed but not counted), "3 matching cards" filtered.
  const count = (total: number) =>
    total > MATCH_COUNT_CAP
      ? filtered
        ? t('countOverMatching', { cap: MATCH_COUNT_CAP })
        : t('countOverActive', { cap: MATCH_COUNT_CAP })
      : filtered
        ? t('countMatching', { count: total })
        : t('countActive', { count: total });

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description', { mode: shell(`modes.${session.mode}`), count: result.total === null ? '' : ` · ${count(result.total)}` })}
        actions={
          <>
            {can(session.role, 'history:export') && (
              <LinkButton href={`/cards/export${filterQuery({ q, status })}`} variant="secondary" download>
                {t('export')}
              </LinkButton>
            )}
            {can(session.role, 'cards:expiry') && (
              <LinkButton href="/cards/expiring" variant="secondary">
                {t('expiring')}
              </LinkButton>
            )}
            {can(session.role, 'cards:create') && (
              <>
                <LinkButton href="/cards/upload" variant="secondary">
                  {t('upload')}
                </LinkButton>
                <LinkButton href="/cards/new">{t('new')}</LinkButton>
              </>
            )}
          </>
        }
      />
      <DataAgeNote lagMs={lagMs} />
      {cancelled && /^\d{4}$/.test(cancelled) && (
        <div className="mb-4">
          <Notice tone="success" testId="cancel-notice">
            {t('cancelled', { last4: cancelled })}{' '}
            {moved && movedCurrency && /^[A-Z]{3}$/.test(movedCurrency)
              ? t('cancelledMoved', { amount: formatMoney(moved, movedCurrency, locale === 'am' ? 'am' : 'en'), currency: movedCurrency })
              : t('cancelledEmpty')}
          </Notice>
        </div>
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for the browsers staff use; role="search" on the form is the equivalent */}
      <form
        method="get"
        action="/cards"
        role="search"
        className="mb-4 grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
      >
        <div>
          <label htmlFor="q" className="block text-sm font-medium text-slate-800">
            {t('searchLabel')}
          </label>
          <input
            id="q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={100}
            placeholder={t('searchPlaceholder')}
            className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 px-3 py-2 text-base focus-visible:outline-3 focus-visible:outline-emerald-700"
          />
        </div>
        <div>
          <label htmlFor="status" className="block text-sm font-medium text-slate-800">
            {t('status')}
          </label>
          <select
            id="status"
            name="status"
            defaultValue={status ?? ''}
            className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base focus-visible:outline-3 focus-visible:outline-emerald-700"
          >
            <option value="">{t('all')}</option>
            <option value="active">{t('statuses.active')}</option>
            <option value="disabled">{t('statuses.disabled')}</option>
            <option value="cancelled">{t('statuses.cancelled')}</option>
          </select>
        </div>
        <Button type="submit" className="sm:w-auto">
          {t('search')}
        </Button>
      </form>

      {status === 'cancelled' && result.items.length > 0 && (
        <div className="mb-4">
          <Notice tone="info" testId="cancelled-list-notice">
            {t('cancelledList')}
          </Notice>
        </div>
      )}
      {result.items.length === 0 ? (
        <EmptyState title={filtered ? t('noMatch') : t('none')}>
          {filtered ? (
            <Link href="/cards" className="underline underline-offset-2">
              {t('clearSearch')}
            </Link>
          ) : can(session.role, 'cards:create') ? (
            <Link href="/cards/new" className="underline underline-offset-2">
              {t('createFirst')}
            </Link>
          ) : (
            t('appearHere')
          )}
        </EmptyState>
      ) : (
        <CardsTable cards={result.items} />
      )}

      <Pager
        label={t('pages')}
        prev={result.prevBefore !== null ? { href: link({ before: String(result.prevBefore) }), label: t('newer') } : null}
        next={result.nextAfter !== null ? { href: link({ after: String(result.nextAfter) }), label: t('older') } : null}
      />
    </>
  );
}
