import Link from 'next/link';
import type { ReactNode } from 'react';

export interface DocsNavGroup {
  title: string;
  links: { href: string; label: string }[];
}

/** The reference pages' frame: a top bar, a section list (a sidebar on wide screens) and the content. */
export function DocsShell({ current, nav, children }: { current: 'api' | 'webhooks'; nav: DocsNavGroup[]; children: ReactNode }) {
  const tab = (href: string, label: string, active: boolean) => (
    <Link
      href={href}
      aria-current={active ? 'page' : undefined}
      className={`rounded-md px-3 py-1.5 text-sm font-medium ${active ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-200'}`}
    >
      {label}
    </Link>
  );
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <p className="font-semibold text-slate-900">Gift Card Service docs</p>
          <nav aria-label="Documentation" className="flex flex-wrap gap-1">
            {tab('/docs', 'API reference', current === 'api')}
            {tab('/docs/webhooks', 'Webhooks', current === 'webhooks')}
            <a href="/api/v1/openapi.json" className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-200">
              openapi.json
            </a>
          </nav>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-4 py-6">
        <nav aria-label="On this page" className="hidden w-56 shrink-0 lg:block">
          <div className="sticky top-4 max-h-[calc(100vh-2rem)] space-y-4 overflow-y-auto text-sm">
            {nav.map((group) => (
              <div key={group.title}>
                <p className="mb-1 font-semibold text-slate-900">{group.title}</p>
                <ul className="space-y-0.5">
                  {group.links.map((l) => (
                    <li key={l.href}>
                      <a href={l.href} className="block rounded px-2 py-0.5 text-slate-700 hover:bg-slate-200">
                        {l.label}
                      </a>
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </nav>
        <main className="min-w-0 flex-1 space-y-8">{children}</main>
      </div>
    </div>
  );
}
