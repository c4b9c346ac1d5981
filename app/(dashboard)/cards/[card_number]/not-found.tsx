import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { EmptyState } from '@/components/ui/page-header';

export default function CardNotFound() {
  const t = useTranslations('ErrorPages');
  return (
    <EmptyState title={t('cardNotFound.title')}>
      {t('cardNotFound.text')}{' '}
      <Link href="/cards" className="underline underline-offset-2">
        {t('cardNotFound.back')}
      </Link>
    </EmptyState>
  );
}
