'use client';

import { useTranslations } from 'next-intl';
import { Button } from './button';

/** The dashboard sections whose data may fail to load, each named in the catalogues' ErrorPages.routeError. */
export type RouteSection = 'cards' | 'payouts' | 'payments' | 'audit' | 'developers' | 'team';

/** What a dashboard page shows when its data could not be read: nothing changed, and a retry. */
export function RouteError({ what, reset }: { what: RouteSection; reset: () => void }) {
  const t = useTranslations('ErrorPages');
  return (
    <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-6 text-red-900" data-testid="route-error">
      <h1 className="text-lg font-semibold">{t(`routeError.${what}`)}</h1>
      <p className="mt-1 text-sm">{t('routeError.text')}</p>
      <Button variant="secondary" className="mt-4 sm:w-auto" onClick={reset}>
        {t('error.retry')}
      </Button>
    </div>
  );
}
