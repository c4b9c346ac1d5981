'use client';

import { useTranslations } from 'next-intl';
import { ErrorCard } from '@/components/errors/error-card';
import { Button } from '@/components/ui/button';
import { LinkButton } from '@/components/ui/link-button';

/** A page outside the dashboard's own error boundaries that failed while drawing: nothing changed, try again. */
export default function AppError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations('ErrorPages');
  return (
    <ErrorCard
      title={t('error.title')}
      actions={
        <>
          <Button className="sm:w-auto" onClick={reset}>
            {t('error.retry')}
          </Button>
          <LinkButton href="/" variant="secondary" className="sm:w-auto">
            {t('home')}
          </LinkButton>
        </>
      }
    >
      {t('error.text')}
    </ErrorCard>
  );
}
