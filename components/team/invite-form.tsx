'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useFieldText } from '@/components/forms/field-text';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { inviteUserSchema, TEAM_ROLES, type InviteUserInput } from '@/lib/actions/team.validation';
import type { Location } from '@/lib/locations/locations';
import type { MailOutcome } from '@/lib/mail/mail-outcome';
import { inviteUser } from '@/server/actions/team';
import { LinkResult } from './link-result';

/**
 * The owner invites by email, role and (when the business has branches) the branch the teammate will work at: a
 * cashier must have one; the teammate chooses their own password through the link.
 */
export function InviteForm({ mailOn, branches }: { mailOn: boolean; branches: Location[] }) {
  const t = useTranslations('TeamForms');
  const shell = useTranslations('Shell');
  const errorText = useErrorText();
  const fieldText = useFieldText();
  const router = useRouter();
  const [created, setCreated] = useState<{ email: string; role: string; location: string | null; link: string; mail: MailOutcome; expiresAt: string } | null>(
    null,
  );
  const [error, setErrorText] = useState<string | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<InviteUserInput>({
    resolver: zodResolver(inviteUserSchema),
    defaultValues: { email: '', role: 'operator', location_id: null },
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
      if (field in values) setError(field as keyof InviteUserInput, { message: fieldText(text) }, { shouldFocus: true });
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
        {branches.length > 0 && (
          <SelectField
            id="invite-location"
            label={t('invite.branch')}
            hint={t('invite.branchHint')}
            error={errors.location_id?.message}
            {...register('location_id', { setValueAs: (v) => (v === '' || v === null ? null : Number(v)) })}
          >
            <option value="">{t('invite.noBranch')}</option>
            {branches.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name}
              </option>
            ))}
          </SelectField>
        )}
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
          label={
            created.location
              ? t('invite.linkAt', { email: created.email, role: shell(`roles.${created.role}`), branch: created.location })
              : t('invite.link', { email: created.email, role: shell(`roles.${created.role}`) })
          }
          link={created.link}
          mail={created.mail}
          expiresAt={created.expiresAt}
          testId="invite-link"
        />
      )}
    </div>
  );
}
