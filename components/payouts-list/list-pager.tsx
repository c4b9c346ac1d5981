import { Pager } from '@/components/ui/pager';
import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { filterQuery, PAGER_LABELS, viewQuery } from './list-view';

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
  const [before, after] = PAGER_LABELS[view.sort];
  const keep = { ...filters, ...viewQuery(view) };
  return (
    <Pager
      label="Pages"
      prev={prev ? { href: `${path}${filterQuery(keep, { before: prev })}`, label: before } : null}
      next={next ? { href: `${path}${filterQuery(keep, { after: next })}`, label: after } : null}
    />
  );
}
