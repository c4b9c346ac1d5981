'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';

export interface NavItem {
  href: string;
  label: string;
}

/** The main navigation; at phone width the items wrap onto a second line, so every one is visible and reachable without scrolling sideways. */
export function NavLinks({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  return (
    <ul className="flex flex-wrap gap-1 text-sm">
      {items.map((item) => {
        const active = item.href === '/' ? pathname === '/' : pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <li key={item.href}>
            <Link
              href={item.href}
              aria-current={active ? 'page' : undefined}
              className={`block min-h-10 whitespace-nowrap rounded-md px-3 py-2 font-medium focus-visible:outline-2 focus-visible:outline-emerald-700 ${active ? 'bg-slate-900 text-white' : 'text-slate-700 hover:bg-slate-100'}`}
            >
              {item.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
