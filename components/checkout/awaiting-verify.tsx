'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useEffect } from 'react';

/** Back from Chapa while verify has not answered yet: the page reloads its data every few seconds, for a few minutes. */
export function AwaitingVerify() {
  const t = useTranslations('Checkout.live');
  const router = useRouter();
  useEffect(() => {
    let left = 90;
    const timer = setInterval(() => {
      left -= 1;
      if (left <= 0) clearInterval(timer);
      router.refresh();
    }, 2000);
    return () => clearInterval(timer);
  }, [router]);
  return (
    <p role="status" className="rounded-lg border border-slate-300 bg-white p-3 text-sm text-slate-700" data-testid="awaiting-verify">
      {t('awaiting')}
    </p>
  );
}
