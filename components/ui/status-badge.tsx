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

export function StatusBadge({ status }: { status: string }) {
  return (
    <span className={`inline-flex rounded-full px-2 py-0.5 text-xs font-semibold capitalize ${TONES[status] ?? 'bg-slate-100 text-slate-800'}`}>{status}</span>
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
