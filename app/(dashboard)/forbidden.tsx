import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { EmptyState } from '@/components/ui/page-header';
import { can } from '@/lib/auth/permissions';
import { getDashboardSession } from '@/server/session';

/** What forbidden() draws, with the 403 status, at the address the role may not open; a cashier is pointed back to the till. */
export default async function Forbidden() {
  const [session, t, till] = await Promise.all([getDashboardSession(), getTranslations('ErrorPages'), getTranslations('Till')]);
  const cashier = session && !can(session.role, 'cards:read') && can(session.role, 'till');
  return (
    <EmptyState title={t('forbidden.title')}>
      <Link className="font-medium text-emerald-800 underline" href={cashier ? '/till' : '/cards'}>
        {cashier ? till('goToTill') : t('forbidden.toCards')}
      </Link>
    </EmptyState>
  );
}
