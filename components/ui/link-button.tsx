import Link from 'next/link';
import type { ReactNode } from 'react';

const VARIANTS = {
  primary: 'bg-emerald-700 text-white hover:bg-emerald-800',
  secondary: 'bg-white text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-100',
} as const;

const BASE =
  'inline-flex min-h-10 items-center rounded-lg px-4 py-2 text-sm font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-emerald-700';

/** A link that looks like a button: a page of ours (client navigation), or a file to download. */
export function LinkButton({
  href,
  variant = 'primary',
  download = false,
  children,
}: {
  href: string;
  variant?: keyof typeof VARIANTS;
  download?: boolean;
  children: ReactNode;
}) {
  const className = `${BASE} ${VARIANTS[variant]}`;
  return download ? (
    <a href={href} download className={className}>
      {children}
    </a>
  ) : (
    <Link href={href} className={className}>
      {children}
    </Link>
  );
}
