import type { ReactNode } from 'react';

const SIZES = {
  sm: 'text-base sm:text-lg',
  md: 'text-lg sm:text-xl',
  lg: 'text-2xl',
} as const;

const BOXES = {
  none: '',
  muted: 'rounded-lg bg-slate-50 p-3 ring-1 ring-slate-200',
  highlight: 'rounded-lg bg-emerald-50 p-3 ring-1 ring-emerald-200',
} as const;

/** A labelled figure inside a <dl>: the label, the value large and in tabular figures, and an optional line under it. */
export function Stat({
  label,
  children,
  detail,
  size = 'md',
  box = 'none',
  testId,
  valueTestId,
  className = '',
}: {
  label: ReactNode;
  children: ReactNode;
  detail?: ReactNode;
  size?: keyof typeof SIZES;
  box?: keyof typeof BOXES;
  testId?: string;
  /** On the value itself, for a test that reads the figure alone. */
  valueTestId?: string;
  className?: string;
}) {
  return (
    <div className={`min-w-0 ${BOXES[box]} ${className}`} data-testid={testId}>
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className={`mt-1 break-words font-semibold text-slate-900 tabular-nums ${SIZES[size]}`} data-testid={valueTestId}>
        {children}
      </dd>
      {detail && <dd className="mt-0.5 text-xs text-slate-600">{detail}</dd>}
    </div>
  );
}
