import { useTranslations } from 'next-intl';
import Link from 'next/link';
import { EmptyState } from '@/components/ui/page-header';

/** What forbidden() draws, with the 403 status, at the address the role may not open. */
export default function Forbidden() {
  const t = useTranslations('ErrorPages');
  return (
    <EmptyState title={t('forbidden.title')}>
      <Link className="font-medium text-emerald-800 underline" href="/cards">
        {t('forbidden.toCards')}
      </Link>
    </EmptyState>
  );
}
