'use client';

import Link from 'next/link';
import { useTranslations } from 'next-intl';

export function AccountLink() {
  const t = useTranslations('Shell');
  return (
    <Link
      href="/account"
      className="rounded-md px-3 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-emerald-700"
    >
      {t('account')}
    </Link>
  );
}
