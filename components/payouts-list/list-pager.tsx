import { useTranslations } from 'next-intl';
import { Pager } from '@/components/ui/pager';
import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { filterQuery, viewQuery } from './list-view';

/** Previous/next links by cursor, worded for the list's order: paging stays in the URL and costs the same on page 1 and page 4,000. */
export function ListPager({
  path,
  filters,
  view,
  prev,
  next,
}: {
  path: string;
  filters: Record<string, string | undefined>;
  view: ListView;
  prev: string | null;
  next: string | null;
}) {
  const t = useTranslations('Payouts');
  const before = t(`list.pager.${view.sort}.before`);
  const after = t(`list.pager.${view.sort}.after`);
  const keep = { ...filters, ...viewQuery(view) };
  return (
    <Pager
      label={t('list.pages')}
      prev={prev ? { href: `${path}${filterQuery(keep, { before: prev })}`, label: before } : null}
      next={next ? { href: `${path}${filterQuery(keep, { after: next })}`, label: after } : null}
    />
  );
}
