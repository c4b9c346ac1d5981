'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { changePasswordSchema, type ChangePasswordInput } from '@/lib/actions/account.validation';
import { changePassword } from '@/server/actions/account';

export function ChangePasswordForm({ email }: { email: string }) {
  const t = useTranslations('Account');
  const errorText = useErrorText();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<ChangePasswordInput>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { current_password: '', new_password: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await changePassword(values);
    if (result.ok) {
      reset();
      // Changing the password ended every session of this user, this one too.
      setMessage({ tone: 'success', text: t('passwordChanged') });
      window.location.assign('/login?done=password');
      return;
    }
    const fields = Object.entries(result.fieldErrors ?? {});
    // The server answers every problem at once; the first field takes the focus.
    for (const [i, [field, text]] of fields.entries()) setError(field as keyof ChangePasswordInput, { message: text }, { shouldFocus: i === 0 });
    if (fields.length === 0) setMessage({ tone: 'error', text: errorText(result) });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('changePasswordLabel')}>
      <input type="hidden" autoComplete="username" value={email} readOnly />
      <TextField
        id="current-password"
        label={t('currentPassword')}
        type="password"
        autoComplete="current-password"
        error={errors.current_password?.message}
        {...register('current_password')}
      />
      <TextField
        id="account-new-password"
        label={t('newPassword')}
        type="password"
        autoComplete="new-password"
        hint={t('newPasswordHint')}
        error={errors.new_password?.message}
        {...register('new_password')}
      />
      {message && (
        <Notice tone={message.tone} testId="change-password-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('saving') : t('changePassword')}
      </Button>
    </form>
  );
}
