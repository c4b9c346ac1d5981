import { useTranslations } from 'next-intl';
import { PageSkeleton } from '@/components/ui/page-skeleton';

export default function Loading() {
  const t = useTranslations('PageLoading');
  return <PageSkeleton label={t('team')} shape="panels" />;
}
