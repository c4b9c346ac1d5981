import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { EmptyState } from '@/components/ui/page-header';
import { can } from '@/lib/auth/permissions';
import { getDashboardSession } from '@/server/session';

/** What forbidden() draws, with the 403 status, at the address the role may not open; a cashier is pointed back to the till. */
export default async function Forbidden() {
  const session = await getDashboardSession();
  if (session && !can(session.role, 'cards:read') && can(session.role, 'till')) {
    const t = await getTranslations('Till');
    return (
      <EmptyState title="Your role does not give you access to this page.">
        <Link className="font-medium text-emerald-800 underline" href="/till">
          {t('goToTill')}
        </Link>
      </EmptyState>
    );
  }
  return (
    <EmptyState title="Your role does not give you access to this page.">
      <Link className="font-medium text-emerald-800 underline" href="/cards">
        Go to cards
      </Link>
    </EmptyState>
  );
}
