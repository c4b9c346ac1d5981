const TONES: Record<string, string> = {
  success: 'bg-emerald-100 text-emerald-900',
  active: 'bg-emerald-100 text-emerald-900',
  pending: 'bg-amber-100 text-amber-900',
  failed: 'bg-red-100 text-red-900',
  invalid: 'bg-red-100 text-red-900',
  disabled: 'bg-slate-200 text-slate-800',
  cancelled: 'bg-slate-200 text-slate-800',
  held: 'bg-amber-100 text-amber-900',
  captured: 'bg-emerald-100 text-emerald-900',
  voided: 'bg-slate-200 text-slate-800',
  expired: 'bg-slate-200 text-slate-800',
};

/** A status's colour from its code; `label` says it in the reader's language (the code itself when left out). */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${TONES[status] ?? 'bg-slate-100 text-slate-800'}`}>
      {label ?? status}
    </span>
  );
}

/** Beside a paid payment's status: refunded in full or in part (words from refundedWords), nothing otherwise. */
export function RefundedBadge({ words }: { words: string | null | undefined }) {
  if (!words) return null;
  return (
    <span className="inline-flex rounded-full bg-violet-100 px-2 py-0.5 text-xs font-semibold text-violet-900" data-testid="refunded-label">
      {words}
    </span>
  );
}
