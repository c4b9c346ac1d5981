import { getLocale, getTranslations } from 'next-intl/server';
import { helpChoices, SearchResultsView } from '@/components/search/search-results';
import { DataAgeNote } from '@/components/ui/data-age-note';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { PageHeader } from '@/components/ui/page-header';
import { can } from '@/lib/auth/permissions';
import { ServiceError } from '@/lib/errors';
import { MAX_SEARCH_LENGTH, searchEverything, type SearchResults } from '@/lib/search/search-everything';
import { pageRead } from '@/server/read-your-writes';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Search');
  return { title: t('metaTitle') };
}

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The header search's full page: the same results, without JavaScript too (the header form posts here). */
export default async function SearchPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const session = await requirePage('cards:read');
  const q = (one((await searchParams).q) ?? '').trim();
  const [t, tShell, results_t] = await Promise.all([getTranslations('Search'), getTranslations('Shell'), getTranslations('SearchResults')]);
  let results: SearchResults | null = null;
  let problem: string | null = null;
  let lagMs = 0;
  if (q) {
    try {
      ({ value: results, lagMs } = await pageRead((db) =>
        searchEverything(db, { businessId: session.businessId, mode: session.mode, role: session.role, country: session.country, query: q }),
      ));
    } catch (err) {
      if (!(err instanceof ServiceError)) throw err;
      const errors = await getTranslations('Errors');
      // The detail is written in English; another language names the refusal by its code.
      if ((await getLocale()) !== 'en') problem = errors(`codes.${err.code}`);
      else problem = typeof err.detail === 'string' ? err.detail : Object.values(err.detail).flat().join(' ');
    }
  }
  return (
    <>
      <PageHeader
        title={t('title')}
        description={`${t('inMode', { mode: tShell(`modes.${session.mode}`) })} ${results_t('help', helpChoices({ history: can(session.role, 'history:read'), businesses: can(session.role, 'money:move'), references: can(session.role, 'cards:read') }))}`}
      />
      {/* biome-ignore lint/a11y/useSemanticElements: <search> is too new for the browsers staff use; role="search" on the form is the equivalent */}
      <form
        method="get"
        action="/search"
        role="search"
        className="mb-4 grid gap-3 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:grid-cols-[1fr_auto] sm:items-end"
      >
        <div>
          <label htmlFor="search-q" className="block text-sm font-medium text-slate-800">
            {t('searchFor')}
          </label>
          <input
            id="search-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={MAX_SEARCH_LENGTH}
            className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 px-3 py-2 text-base focus-visible:outline-3 focus-visible:outline-emerald-700"
          />
        </div>
        <Button type="submit" className="sm:w-auto">
          {t('submit')}
        </Button>
      </form>
      <DataAgeNote lagMs={lagMs} />
      {problem && <Notice tone="error">{problem}</Notice>}
      {results && (
        <div className="rounded-xl bg-white p-2 shadow-sm ring-1 ring-slate-200" data-testid="search-page-results">
          <SearchResultsView results={results} />
        </div>
      )}
    </>
  );
}
