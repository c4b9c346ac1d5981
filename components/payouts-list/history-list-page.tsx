import type { ReactNode } from 'react';
import { useTranslations } from 'next-intl';
import { PageHeader } from '@/components/ui/page-header';
import { LinkButton } from '@/components/ui/link-button';
import { can, type Permission } from '@/lib/auth/permissions';
import type { Role } from '@/lib/auth/users';
import type { ListView } from '@/lib/dashboard/keyset-cursor';
import { type FilterOption, ListFilters } from './list-filters';
import { filterQuery } from './list-view';

/** What one history list is: its words, where it lives, how it is filtered and how a new one is started. */
export interface HistoryListDescriptor {
  title: string;
  /** What the list holds, before "in test mode, newest first". */
  holds: string;
  path: '/payouts' | '/payments';
  newLink: { href: string; label: string };
  /** A CSV upload of many at once, for the roles its permission names. */
  uploadLink?: { href: string; label: string; permission: Permission };
  types: FilterOption[];
  statuses: FilterOption[];
  searchHint: string;
}

/** The Payouts and Payments list pages: header with export and new, the filters, then the list the page prefetched. */
export function HistoryListPage({
  list,
  role,
  mode,
  filters,
  view,
  children,
}: {
  list: HistoryListDescriptor;
  role: Role;
  mode: string;
  filters: { type?: string; status?: string; from?: string; to?: string; q?: string };
  view: ListView;
  children: ReactNode;
}) {
  const t = useTranslations('Payouts');
  const shell = useTranslations('Shell');
  return (
    <>
      <PageHeader
        title={list.title}
        description={t('list.description', { holds: list.holds, mode: shell(`modes.${mode}`), order: t(`list.sortWords.${view.sort}`) })}
        actions={
          <>
            {can(role, 'history:export') && (
              <LinkButton href={`${list.path}/export${filterQuery({ ...filters })}`} variant="secondary" download>
                {t('list.export')}
              </LinkButton>
            )}
            {list.uploadLink && can(role, list.uploadLink.permission) && (
              <LinkButton href={list.uploadLink.href} variant="secondary">
                {list.uploadLink.label}
              </LinkButton>
            )}
            {can(role, 'money:move') && <LinkButton href={list.newLink.href}>{list.newLink.label}</LinkButton>}
          </>
        }
      />
      <ListFilters path={list.path} types={list.types} statuses={list.statuses} values={filters} view={view} searchHint={list.searchHint} />
      {children}
    </>
  );
}
