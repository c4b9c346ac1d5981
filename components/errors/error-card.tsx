import type { ReactNode } from 'react';

/** The one look of every page that says something went wrong: a status, a title, a sentence, a way on. */
export function ErrorCard({ status, title, children, actions }: { status?: number; title: string; children: ReactNode; actions: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className="w-full max-w-md rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200" data-testid="error-page">
        {status !== undefined && <p className="text-sm font-semibold tabular-nums text-emerald-800">{status}</p>}
        <h1 className="mt-1 text-xl font-semibold text-slate-900">{title}</h1>
        <div className="mt-2 text-sm text-slate-700">{children}</div>
        <div className="mt-5 flex flex-col gap-2 sm:flex-row">{actions}</div>
      </div>
    </main>
  );
}
