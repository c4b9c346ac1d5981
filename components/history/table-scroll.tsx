import type { ReactNode } from 'react';

/** Wide tables scroll inside their own box at 390 px; the box is focusable so keyboard users can scroll it too. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="max-w-full overflow-x-auto rounded-xl bg-white shadow-sm ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-emerald-700"
    >
      {children}
    </div>
  );
}
