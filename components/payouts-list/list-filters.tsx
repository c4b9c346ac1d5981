import { useTranslations } from 'next-intl';
import { TimeZoneNote } from '@/components/ui/time-zone-note';
import { LIST_SORTS, PAGE_SIZES, type ListView } from '@/lib/dashboard/keyset-cursor';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';

export interface FilterOption {
  value: string;
  label: string;
}

const control =
  'mt-0.5 block min-h-10 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-900 focus-visible:outline-2 focus-visible:outline-emerald-700';
const labelClass = 'block text-xs font-medium text-slate-700';

function FilterSelect({ name, label, all, options, value }: { name: string; label: string; all?: string; options: FilterOption[]; value?: string }) {
  return (
    <div>
      <label htmlFor={`filter-${name}`} className={labelClass}>
        {label}
      </label>
      <select id={`filter-${name}`} name={name} defaultValue={value ?? ''} className={control}>
        {all && <option value="">{all}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The filters, order and page size of the payouts or payments list, as a plain
 * GET form: all of it lives in the URL (shareable, back button works) and
 * needs no JavaScript. Applying starts again at the first page.
 */
export function ListFilters({
  path,
  types,
  statuses,
  values,
  view,
  searchHint,
}: {
  path: '/payouts' | '/payments';
  types: FilterOption[];
  statuses: FilterOption[];
  values: { type?: string; status?: string; from?: string; to?: string; q?: string };
  view: ListView;
  /** What the search box finds on this list. */
  searchHint: string;
}) {
  const t = useTranslations('Payouts');
  const setCount =
    [values.type, values.status, values.from, values.to].filter(Boolean).length + (view.sort !== LIST_SORTS[0] || view.size !== PAGE_SIZES[0] ? 1 : 0);
  return (
    <form method="get" action={path} className="mb-4 rounded-xl bg-white px-3 py-2.5 shadow-sm ring-1 ring-slate-200" aria-label={t('list.filters')}>
      {/* One bar from 1024 px (search, six filters, the buttons), so a laptop's first screen reaches the rows; two lines between. */}
      <div className="flex flex-wrap items-end gap-2 lg:flex-nowrap">
        <div className="basis-full lg:w-56 lg:shrink-0 lg:basis-auto">
          <label htmlFor="filter-q" className={labelClass}>
            {t('list.search')}
          </label>
          <input
            id="filter-q"
            name="q"
            type="search"
            maxLength={100}
            defaultValue={values.q ?? ''}
            aria-describedby="filter-q-hint"
            title={searchHint}
            className={control}
          />
          <p id="filter-q-hint" className="mt-0.5 text-xs text-slate-600 lg:sr-only">
            {searchHint}
          </p>
        </div>
        {/* Folded under 768 px unless one is set, beside Apply, so the list starts on a phone's first screen; always open above. */}
        <details
          open={setCount > 0}
          className="min-w-0 flex-1 open:basis-full md:basis-full lg:basis-auto lg:open:basis-auto md:[&::details-content]:[content-visibility:visible] md:[&>summary]:hidden"
          data-testid="more-filters"
        >
          <summary className="flex min-h-10 cursor-pointer items-center rounded-lg px-1 text-sm font-medium text-slate-800 focus-visible:outline-2 focus-visible:outline-emerald-700">
            {t('list.filtersAndOrder')}
            {setCount > 0 ? t('list.setCount', { count: setCount }) : ''}
          </summary>
          <div className="mt-2 grid grid-cols-2 gap-2 md:mt-0 md:grid-cols-3 lg:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_8.5rem_8.5rem_minmax(0,1.1fr)_minmax(0,0.9fr)]">
            <FilterSelect name="type" label={t('list.type')} all={t('list.allTypes')} options={types} value={values.type} />
            <FilterSelect name="status" label={t('list.status')} all={t('list.allStatuses')} options={statuses} value={values.status} />
            <div>
              <label htmlFor="filter-from" className={labelClass}>
                {t('list.from')}
              </label>
              <input id="filter-from" name="from" type="date" defaultValue={values.from ?? ''} aria-describedby="filter-days-zone" className={control} />
            </div>
            <div>
              <label htmlFor="filter-to" className={labelClass}>
                {t('list.to')}
              </label>
              <input id="filter-to" name="to" type="date" defaultValue={values.to ?? ''} aria-describedby="filter-days-zone" className={control} />
            </div>
            <FilterSelect name="sort" label={t('list.sortBy')} options={LIST_SORTS.map((s) => ({ value: s, label: t(`list.sorts.${s}`) }))} value={view.sort} />
            <FilterSelect
              name="size"
              label={t('list.perPage')}
              options={PAGE_SIZES.map((s) => ({ value: String(s), label: t('list.rows', { count: s }) }))}
              value={String(view.size)}
            />
          </div>
        </details>
        <div className="flex shrink-0 items-end gap-2">
          <Button type="submit" size="sm" block={false}>
            {t('list.apply')}
          </Button>
          <LinkButton href={path} variant="secondary">
            {t('list.clear')}
          </LinkButton>
        </div>
      </div>
      <TimeZoneNote id="filter-days-zone" lead={t('list.daysIn')} className="mt-1" />
    </form>
  );
}
