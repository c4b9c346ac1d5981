import Link from 'next/link';
import { filterQuery } from './history-filters';

const link =
  'inline-flex min-h-10 items-center rounded-lg px-4 py-2 text-sm font-medium ring-1 ring-inset ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-700';

/** Newer/older links by cursor: paging stays in the URL and costs the same on page 1 and page 4,000. */
export function Pager({ path, filters, prev, next }: { path: string; filters: Record<string, string | undefined>; prev: string | null; next: string | null }) {
  if (!prev && !next) return null;
  return (
    <nav aria-label="Pages" className="mt-4 flex justify-between gap-2">
      {prev ? (
        <Link href={`${path}${filterQuery(filters, { before: prev })}`} className={`${link} text-slate-800`} rel="prev">
          ← Newer
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link href={`${path}${filterQuery(filters, { after: next })}`} className={`${link} text-slate-800`} rel="next">
          Older →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
