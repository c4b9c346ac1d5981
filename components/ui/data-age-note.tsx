import { AGE_NOTE_AFTER_MS } from '@/lib/db/read-replica';

/** On a page read from the read replica: says how old its data is when the replica lags noticeably. */
export function DataAgeNote({ lagMs }: { lagMs: number }) {
  if (lagMs <= AGE_NOTE_AFTER_MS) return null;
  const seconds = Number.isFinite(lagMs) ? Math.round(lagMs / 1000) : null;
  return (
    <p role="status" data-testid="data-age-note" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
      {seconds === null ? 'Data as of over a minute ago' : `Data as of ${seconds} s ago`}: the newest changes may not show yet.
    </p>
  );
}
