const block = 'animate-pulse bg-slate-200';

/**
 * What a dashboard page shows while its data loads: a heading bar, then either
 * a filter bar over a list or two panels over a list. Screen readers hear label.
 */
export function PageSkeleton({ label, shape }: { label: string; shape: 'list' | 'panels' }) {
  return (
    <div role="status" aria-live="polite" className="space-y-3">
      <span className="sr-only">{label}</span>
      <div className={`h-8 w-48 rounded ${block}`} />
      {shape === 'list' ? (
        <div className={`h-20 rounded-xl ${block}`} />
      ) : (
        <div className="grid gap-4 lg:grid-cols-2">
          <div className={`h-48 rounded-xl ${block}`} />
          <div className={`h-48 rounded-xl ${block}`} />
        </div>
      )}
      <div className={`h-64 rounded-xl ${block}`} />
    </div>
  );
}
