import { LinkButton } from './link-button';

interface PagerLink {
  href: string;
  label: string;
}

/** Previous and next links under a list, each at its own edge; nothing at all when there is only one page. */
export function Pager({ label, prev, next }: { label: string; prev: PagerLink | null; next: PagerLink | null }) {
  if (!prev && !next) return null;
  return (
    <nav aria-label={label} className="mt-4 flex justify-between gap-2">
      {prev ? (
        <LinkButton variant="secondary" rel="prev" href={prev.href}>
          ← {prev.label}
        </LinkButton>
      ) : (
        <span />
      )}
      {next ? (
        <LinkButton variant="secondary" rel="next" href={next.href}>
          {next.label} →
        </LinkButton>
      ) : (
        <span />
      )}
    </nav>
  );
}
