'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useState, useTransition } from 'react';
import { createResetLink, removeUser, updateUserRole } from '@/server/actions/team';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LocalTime } from '@/components/ui/local-time';
import { TEAM_ROLES } from '@/lib/actions/team.validation';
import type { MailOutcome } from '@/lib/mail/mail-outcome';
import { LinkResult } from './link-result';

export interface TeamMember {
  id: number;
  email: string;
  role: string;
  createdAt: string;
  lastSignInAt: string | null;
  twoFactor: boolean;
}

/** One user: role change and removal; the server refuses yourself and the last owner whatever this shows. */
export function TeamMemberRow({ member, isSelf }: { member: TeamMember; isSelf: boolean }) {
  const t = useTranslations('TeamForms');
  const shell = useTranslations('Shell');
  const roleName = (r: string) => shell(`roles.${r}`);
  const errorText = useErrorText();
  const router = useRouter();
  const [role, setRole] = useState(member.role);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [pending, startTransition] = useTransition();
  const [resetLink, setResetLink] = useState<{ link: string; mail: MailOutcome; expiresAt: string } | null>(null);
  const selectId = `role-${member.id}`;

  const makeResetLink = () =>
    startTransition(async () => {
      const res = await createResetLink({ user_id: member.id });
      if (res.ok) setResetLink(res.data);
      else setMessage({ ok: false, text: errorText(res) });
    });

  const save = () =>
    startTransition(async () => {
      const res = await updateUserRole({ user_id: member.id, role });
      setMessage(
        res.ok ? { ok: true, text: t('member.nowRole', { role: roleName(res.data.role) }) } : { ok: false, text: res.fieldErrors?.role ?? errorText(res) },
      );
      if (!res.ok) setRole(member.role);
      router.refresh();
    });

  const remove = () =>
    startTransition(async () => {
      const res = await removeUser({ user_id: member.id });
      setConfirming(false);
      if (!res.ok) setMessage({ ok: false, text: errorText(res) });
      router.refresh();
    });

  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-3 py-3" data-testid="team-member">
      <div className="min-w-0">
        <p className="break-all font-medium text-slate-900">
          {member.email} {isSelf && <span className="text-xs font-normal text-slate-600">{t('member.you')}</span>}
        </p>
        <p className="text-xs text-slate-600">
          {t('member.added')} <LocalTime iso={member.createdAt} />
          {' · '}
          <span data-testid="last-sign-in">
            {member.lastSignInAt ? (
              <>
                {t('member.lastSignIn')} <LocalTime iso={member.lastSignInAt} />
              </>
            ) : (
              t('member.neverSignedIn')
            )}
          </span>
          {' · '}
          <span data-testid="two-factor-state">{member.twoFactor ? t('member.twoFactorOn') : t('member.twoFactorOff')}</span>
        </p>
        {message && (
          <p role={message.ok ? 'status' : 'alert'} className={`mt-1 text-sm ${message.ok ? 'text-emerald-800' : 'text-red-800'}`}>
            {message.text}
          </p>
        )}
      </div>
      {isSelf ? (
        <span className="text-sm font-medium capitalize text-slate-800" data-testid="own-role">
          {roleName(member.role)}
        </span>
      ) : (
        <div className="flex flex-wrap items-center gap-2">
          <label htmlFor={selectId} className="sr-only">
            {t('member.roleOf', { email: member.email })}
          </label>
          <select
            id={selectId}
            value={role}
            onChange={(e) => setRole(e.target.value)}
            className="min-h-10 rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm focus-visible:outline-3 focus-visible:outline-emerald-700"
          >
            {TEAM_ROLES.map((r) => (
              <option key={r} value={r}>
                {roleName(r)}
              </option>
            ))}
          </select>
          <Button
            variant="secondary"
            size="xs"
            block={false}
            disabled={pending || role === member.role}
            onClick={save}
            aria-label={t('member.saveRoleOf', { email: member.email })}
          >
            {t('member.save')}
          </Button>
          <Button
            variant="secondary"
            size="xs"
            block={false}
            className="whitespace-nowrap"
            disabled={pending}
            onClick={makeResetLink}
            aria-label={t('member.resetLinkFor', { email: member.email })}
          >
            {t('member.resetLink')}
          </Button>
          <Button
            variant="danger"
            size="xs"
            block={false}
            disabled={pending}
            onClick={() => setConfirming(true)}
            aria-label={t('member.removeEmail', { email: member.email })}
          >
            {t('member.remove')}
          </Button>
        </div>
      )}
      {resetLink && (
        <div className="w-full">
          <LinkResult
            label={t('member.resetLinkLabel', { email: member.email })}
            link={resetLink.link}
            mail={resetLink.mail}
            expiresAt={resetLink.expiresAt}
            testId="reset-link"
          />
        </div>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('member.removeTitle', { email: member.email })}
        confirmLabel={t('member.removeUser')}
        pending={pending}
        onConfirm={remove}
        onClose={() => setConfirming(false)}
      >
        {t('member.removeText')}
      </ConfirmDialog>
    </li>
  );
}
