import type { ReactNode } from 'react';

/** Wide tables scroll inside their own box at 390 px; the box is focusable so keyboard users can scroll it too. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a <section> would add a landmark per table; the region role with a label is what axe asks of a focusable scroll box
    <div
      role="region"
      aria-label={label}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable box must be focusable so keyboard users can scroll it (axe: scrollable-region-focusable)
      tabIndex={0}
      className="max-w-full overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-emerald-700"
    >
      {children}
    </div>
  );
}
