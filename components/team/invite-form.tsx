'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { inviteUserSchema, TEAM_ROLES, type InviteUserInput } from '@/lib/actions/team.validation';
import type { MailOutcome } from '@/lib/mail/mail-outcome';
import { inviteUser } from '@/server/actions/team';
import { LinkResult } from './link-result';

/** The owner invites by email and role; the teammate chooses their own password through the link. */
export function InviteForm({ mailOn }: { mailOn: boolean }) {
  const t = useTranslations('TeamForms');
  const shell = useTranslations('Shell');
  const errorText = useErrorText();
  const router = useRouter();
  const [created, setCreated] = useState<{ email: string; role: string; link: string; mail: MailOutcome; expiresAt: string } | null>(null);
  const [error, setErrorText] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<InviteUserInput>({
    resolver: zodResolver(inviteUserSchema),
    defaultValues: { email: '', role: 'operator' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setErrorText(null);
    setCreated(null);
    const result = await inviteUser(values);
    if (result.ok) {
      reset();
      setCreated(result.data);
      router.refresh();
      return;
    }
    const fields = Object.entries(result.fieldErrors ?? {});
    for (const [field, text] of fields) {
      if (field in values) setError(field as keyof InviteUserInput, { message: text }, { shouldFocus: true });
    }
    if (fields.length === 0 || fields.some(([f]) => !(f in values))) setErrorText(errorText(result));
  });

  return (
    <div className="space-y-4">
      <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('invite.label')}>
        <TextField id="invite-email" label={t('invite.email')} type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
        <SelectField id="invite-role" label={t('invite.role')} error={errors.role?.message} {...register('role')}>
          {TEAM_ROLES.map((r) => (
            <option key={r} value={r}>
              {shell(`roles.${r}`)}
            </option>
          ))}
        </SelectField>
        <p className="text-xs text-slate-600">{mailOn ? t('invite.mailOn') : t('invite.mailOff')}</p>
        {error && (
          <Notice tone="error" testId="invite-error">
            {error}
          </Notice>
        )}
        <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
          {isSubmitting ? t('invite.inviting') : t('invite.submit')}
        </Button>
      </form>
      {created && (
        <LinkResult
          label={t('invite.link', { email: created.email, role: shell(`roles.${created.role}`) })}
          link={created.link}
          mail={created.mail}
          expiresAt={created.expiresAt}
          testId="invite-link"
        />
      )}
    </div>
  );
}
