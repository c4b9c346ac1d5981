import Link from 'next/link';
import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { filterQuery, PAGER_LABELS, viewQuery } from './list-view';

const link =
  'inline-flex min-h-10 items-center rounded-lg px-4 py-2 text-sm font-medium text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-700';

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
  if (!prev && !next) return null;
  const [before, after] = PAGER_LABELS[view.sort];
  const keep = { ...filters, ...viewQuery(view) };
  return (
    <nav aria-label="Pages" className="mt-4 flex justify-between gap-2">
      {prev ? (
        <Link href={`${path}${filterQuery(keep, { before: prev })}`} className={link} rel="prev">
          ← {before}
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link href={`${path}${filterQuery(keep, { after: next })}`} className={link} rel="next">
          {after} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
