import { getTranslations } from 'next-intl/server';
import { ErrorCard } from '@/components/errors/error-card';
import { LinkButton } from '@/components/ui/link-button';

export async function generateMetadata() {
  const t = await getTranslations('ErrorPages');
  return { title: t('notFound.metaTitle') };
}

/** Any address no page answers, in the reader's language (the signed-in person's choice, else the browser's). */
export default async function NotFound() {
  const t = await getTranslations('ErrorPages');
  return (
    <ErrorCard
      status={404}
      title={t('notFound.title')}
      actions={
        <LinkButton href="/" className="sm:w-auto">
          {t('home')}
        </LinkButton>
      }
    >
      {t('notFound.text')}
    </ErrorCard>
  );
}
