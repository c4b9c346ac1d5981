import { eq } from 'drizzle-orm';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { AccountLink } from '@/components/dashboard/account-link';
import { LiveRefresh } from '@/components/dashboard/live-refresh';
import { ModeSwitch } from '@/components/dashboard/mode-switch';
import { NavLinks, type NavItem } from '@/components/dashboard/nav-links';
import { SignOutButton } from '@/components/dashboard/sign-out-button';
import { DashboardProviders } from '@/components/providers/dashboard-providers';
import { HeaderSearch } from '@/components/search/header-search';
import { can, type Permission } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';
import { getDb } from '@/lib/db/client';
import { countWaitingApprovals } from '@/lib/approvals/list-approvals';
import { businesses } from '@/lib/db/schema';

const NAV: (Omit<NavItem, 'label'> & { permission: Permission })[] = [
  { href: '/', permission: 'history:read' },
  { href: '/cards', permission: 'cards:read' },
  { href: '/messages', permission: 'cards:read' },
  { href: '/payouts', permission: 'history:read' },
  { href: '/payments', permission: 'history:read' },
  { href: '/shop-orders', permission: 'history:read' },
  { href: '/reports', permission: 'reports:read' },
  { href: '/approvals', permission: 'money:approve' },
  { href: '/developers', permission: 'developers' },
  { href: '/audit', permission: 'audit:read' },
  { href: '/team', permission: 'team' },
  { href: '/settings', permission: 'settings' },
  { href: '/till', permission: 'till' },
];

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await requirePage();
  const db = getDb();
  const [[business], waiting] = await Promise.all([
    db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, session.businessId)),
    can(session.role, 'money:approve') || can(session.role, 'money:move')
      ? countWaitingApprovals(db, { businessId: session.businessId, mode: session.mode })
      : 0,
  ]);
  const t = await getTranslations('Shell');
  const nav = await getTranslations('Nav');
  const preferences = { timeZone: session.timeZone, country: session.country, calendar: session.calendar };
  const label = (href: string) => nav(`pages.${href === '/' ? 'overview' : href.slice(1)}`);
  return (
    <DashboardProviders preferences={preferences}>
      <div className="min-h-screen">
        {session.mode === 'test' && (
          <div role="status" data-testid="test-mode-banner" className="bg-amber-400 px-4 py-1.5 text-center text-sm font-semibold text-amber-950">
            {t('testModeBanner')}
          </div>
        )}
        <header className="border-b border-slate-200 bg-white">
          <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
            <div className="min-w-0 flex-1 basis-0 sm:flex-initial sm:basis-auto">
              <p className="truncate font-semibold text-slate-900">{business?.name}</p>
              <p className="truncate text-xs text-slate-600">
                {session.email} · <span data-testid="role">{t(`roles.${session.role}`)}</span>
              </p>
            </div>
            {can(session.role, 'cards:read') && <HeaderSearch mode={session.mode} />}
            <div className="flex items-center gap-2">
              <ModeSwitch mode={session.mode} />
              {/* On a phone these two are in the Menu: the header keeps to two rows above it. */}
              <div className="hidden items-center gap-2 md:flex">
                <AccountLink />
                <SignOutButton />
              </div>
            </div>
          </div>
          <NavLinks
            items={NAV.filter((n) => can(session.role, n.permission) || (n.href === '/approvals' && can(session.role, 'money:move'))).map(({ href }) => ({
              href,
              label: label(href),
              count: href === '/approvals' ? waiting : undefined,
            }))}
            phoneExtras={
              <>
                <AccountLink />
                <SignOutButton />
              </>
            }
          />
        </header>
        <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
        {can(session.role, 'cards:read') && <LiveRefresh />}
      </div>
    </DashboardProviders>
  );
}
