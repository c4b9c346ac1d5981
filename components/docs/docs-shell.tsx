import { getTranslations } from 'next-intl/server';
import Link from 'next/link';
import type { ReactNode } from 'react';
import { ContractText } from './contract-text';

export interface DocsNavGroup {
  title: string;
  /** The group's words come from openapi.json (a tag and its operations' summaries): they stay English. */
  contract?: boolean;
  links: { href: string; label: string }[];
}

/** The reference pages' frame: a top bar, a section list (a sidebar on wide screens) and the content. */
export async function DocsShell({ current, nav, children }: { current: 'api' | 'webhooks'; nav: DocsNavGroup[]; children: ReactNode }) {
  const t = await getTranslations('Docs');
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
          <p className="font-semibold text-slate-900">{t('shell.title')}</p>
          <nav aria-label={t('shell.documentation')} className="flex flex-wrap gap-1">
            {tab('/docs', t('shell.api'), current === 'api')}
            {tab('/docs/webhooks', t('shell.webhooks'), current === 'webhooks')}
            <a href="/api/v1/openapi.json" className="rounded-md px-3 py-1.5 font-mono text-sm font-medium text-slate-700 hover:bg-slate-200">
              openapi.json
            </a>
          </nav>
        </div>
      </header>
      <div className="mx-auto flex max-w-7xl gap-8 px-4 py-6">
        <nav aria-label={t('shell.onThisPage')} className="hidden w-56 shrink-0 lg:block">
          <div className="sticky top-4 max-h-[calc(100vh-2rem)] space-y-4 overflow-y-auto text-sm">
            {nav.map((group) => (
              <div key={group.title}>
                <p className="mb-1 font-semibold text-slate-900">{group.contract ? <ContractText>{group.title}</ContractText> : group.title}</p>
                <ul className="space-y-0.5">
                  {group.links.map((l) => (
                    <li key={l.href}>
                      <a href={l.href} className="block rounded px-2 py-0.5 text-slate-700 hover:bg-slate-200">
                        {group.contract ? <ContractText>{l.label}</ContractText> : l.label}
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
