import type { ReactNode } from 'react';

/** The narrow centred card of the signed-out pages (sign-in, invitation, reset, two-factor set-up). */
export function AuthCard({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div className={`w-full ${wide ? 'max-w-lg' : 'max-w-sm'} rounded-xl bg-white p-6 shadow-sm ring-1 ring-slate-200`}>
        <h1 className="text-xl font-semibold">{title}</h1>
        {children}
      </div>
    </main>
  );
}
