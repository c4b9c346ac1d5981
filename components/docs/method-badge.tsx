const COLORS: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900',
  post: 'bg-emerald-100 text-emerald-900',
  put: 'bg-amber-100 text-amber-900',
  patch: 'bg-violet-100 text-violet-900',
  delete: 'bg-rose-100 text-rose-900',
};

export function MethodBadge({ method }: { method: string }) {
  return (
    <span className={`inline-block rounded px-1.5 py-0.5 font-mono text-xs font-bold ${COLORS[method] ?? 'bg-slate-100 text-slate-900'}`}>
      {method.toUpperCase()}
    </span>
  );
}
