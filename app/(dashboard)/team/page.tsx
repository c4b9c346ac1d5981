import { getLocale, getTranslations } from 'next-intl/server';
import { getCountries } from 'libphonenumber-js';
import { BusinessSettingsForm } from '@/components/team/business-settings-form';
import { InviteForm } from '@/components/team/invite-form';
import { PendingInvitations } from '@/components/team/pending-invitations';
import { TeamMemberRow } from '@/components/team/team-member-row';
import { TwoFactorRequirementForm } from '@/components/team/two-factor-requirement-form';
import { BranchAssignments } from '@/components/locations/branch-assignments';
import { listUserLocations } from '@/lib/auth/user-location';
import { listLocations } from '@/lib/locations/locations';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { listPendingInvitations } from '@/lib/auth/invitations';
import { listUsers } from '@/lib/auth/list-users';
import { isTwoFactorRequired } from '@/lib/auth/require-two-factor';
import { mailConfigured } from '@/lib/mail/send-mail';
import { requirePage } from '@/server/session';
import { getDb } from '@/lib/db/client';
import { zoneLabel } from '@/lib/time-zone';

export async function generateMetadata() {
  const t = await getTranslations('Team');
  return { title: t('metaTitle') };
}

const ROLES = ['owner', 'operator', 'finance', 'support', 'cashier'] as const;

function timeZoneChoices() {
  const zones = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  return [...zones].sort().map((value) => ({ value, label: zoneLabel(value) }));
}

function countryChoices(locale: string) {
  const names = new Intl.DisplayNames([locale], { type: 'region' });
  return getCountries()
    .map((value) => ({ value, label: names.of(value) ?? value }))
    .sort((a, b) => a.label.localeCompare(b.label, locale));
}

export default async function TeamPage() {
  const session = await requirePage('team');
  const db = getDb();
  const [t, tShell] = await Promise.all([getTranslations('Team'), getTranslations('Shell')]);
  const tBranches = await getTranslations('Locations');
  const [members, invitations, required, assignments, branches] = await Promise.all([
    listUsers(db, session.businessId),
    listPendingInvitations(db, session.businessId),
    isTwoFactorRequired(db, session.businessId),
    listUserLocations(db, session.businessId),
    listLocations(db, session.businessId),
  ]);
  return (
    <>
      <PageHeader title={t('title')} description={t('intro')} />
      <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <Panel title={t('users', { count: members.length })}>
          <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200" data-testid="team-list">
            {members.map((m) => (
              <TeamMemberRow key={`${m.id}-${m.role}`} member={m} isSelf={m.id === session.userId} />
            ))}
          </ul>
          <dl className="mt-4 grid gap-1 text-sm text-slate-700">
            {ROLES.map((role) => (
              <div key={role} className="flex gap-2">
                <dt className="w-20 shrink-0 font-medium capitalize text-slate-900">{tShell(`roles.${role}`)}</dt>
                <dd>{t(`roleHelp.${role}`)}</dd>
              </div>
            ))}
          </dl>
        </Panel>
        <div className="space-y-4">
          <Panel title={t('invite')}>
            <InviteForm mailOn={mailConfigured()} branches={branches} />
          </Panel>
          <Panel title={t('pending', { count: invitations.length })}>
            <PendingInvitations items={invitations} />
          </Panel>
          <Panel title={tBranches('teamTitle')}>
            <BranchAssignments members={assignments} branches={branches} />
          </Panel>
          <Panel title={t('twoFactor')}>
            <TwoFactorRequirementForm required={required} withoutTwoFactor={members.filter((m) => !m.twoFactor).length} />
          </Panel>
          <Panel title={t('businessSettings')}>
            <BusinessSettingsForm
              timeZone={session.timeZone}
              country={session.country}
              timeZones={timeZoneChoices()}
              countries={countryChoices(await getLocale())}
            />
          </Panel>
        </div>
      </div>
    </>
  );
}
