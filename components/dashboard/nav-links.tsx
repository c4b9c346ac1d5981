'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { usePathname } from 'next/navigation';
import { type ReactNode, useEffect, useId, useState } from 'react';

export interface NavItem {
  href: string;
  label: string;
  /** Things waiting for the reader (approvals to decide), shown beside the label when there are any. */
  count?: number;
}

const isActive = (href: string, pathname: string) => (href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`));

/**
 * The main navigation. Under 768 px it is one Menu button (ten items wrapped onto three rows pushed every page
 * down a phone's first screen); the open menu closes when a page is chosen. Wider screens show the row as ever.
 */
export function NavLinks({ items, phoneExtras }: { items: NavItem[]; phoneExtras?: ReactNode }) {
  const t = useTranslations('Nav');
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const listId = useId();
  // A new page closes the menu: the reader chose where to go.
  // biome-ignore lint/correctness/useExhaustiveDependencies: pathname is the trigger, not a value read
  useEffect(() => setOpen(false), [pathname]);
  const current = items.find((i) => isActive(i.href, pathname));
  const waiting = items.reduce((n, i) => n + (i.count ?? 0), 0);
  return (
    <nav aria-label={t('main')} className="mx-auto max-w-6xl px-4 pb-2">
      <div className="flex items-center gap-3 md:hidden">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={listId}
          onClick={() => setOpen((o) => !o)}
          className="inline-flex min-h-10 items-center gap-2 rounded-md px-3 py-2 text-sm font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-700"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill="currentColor">
            {open ? (
              <path d="M5.3 4.3 10 9l4.7-4.7 1 1L11 10l4.7 4.7-1 1L10 11l-4.7 4.7-1-1L9 10 4.3 5.3z" />
            ) : (
              <path d="M3 5h14v1.5H3zm0 4.25h14v1.5H3zm0 4.25h14V15H3z" />
            )}
          </svg>
          {t('menu')}
          {waiting > 0 && (
            <span className="rounded-full bg-amber-400 px-1.5 text-xs font-bold text-amber-950">
              {waiting}
              <span className="sr-only"> {t('waiting')}</span>
            </span>
          )}
        </button>
        {current && !open && <span className="truncate text-sm font-medium text-slate-700">{current.label}</span>}
      </div>
      <ul id={listId} className={`${open ? 'mt-2 grid grid-cols-2' : 'hidden'} gap-1 text-sm md:mt-0 md:flex md:flex-wrap`}>
        {items.map((item) => {
          const active = isActive(item.href, pathname);
          return (
            <li key={item.href}>
              <Link
                href={item.href}
                aria-current={active ? 'page' : undefined}
                className={`flex min-h-10 items-center gap-1.5 whitespace-nowrap rounded-md px-3 py-2 font-medium focus-visible:outline-2 focus-visible:outline-emerald-700 ${active ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
              >
                {item.label}
                {item.count ? (
                  <span className="rounded-full bg-amber-400 px-1.5 text-xs font-bold text-amber-950" data-testid="nav-count">
                    {item.count}
                    <span className="sr-only"> {t('waiting')}</span>
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
        {phoneExtras && <li className="col-span-2 flex items-center gap-2 border-t border-slate-200 pt-2 md:hidden">{phoneExtras}</li>}
      </ul>
    </nav>
  );
}
