'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { signIn } from 'next-auth/react';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { getQueryClient } from '@/components/providers/query-client';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { choosePasswordSchema, type ChoosePasswordInput } from '@/lib/actions/account.validation';
import { acceptInvitation, resetPassword } from '@/server/actions/links';

/**
 * The password form behind an invitation or reset link. On success it signs in
 * with the new password; when that needs a two-factor code it goes to sign-in.
 */
export function ChoosePasswordForm({ token, email, kind }: { token: string; email: string; kind: 'invitation' | 'reset' }) {
  const t = useTranslations('SignInLinks');
  const errorText = useErrorText();
  const router = useRouter();
  const [error, setErrorText] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<ChoosePasswordInput>({
    resolver: zodResolver(choosePasswordSchema),
    defaultValues: { token, password: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setErrorText(null);
    const result = await (kind === 'invitation' ? acceptInvitation : resetPassword)(values);
    if (!result.ok) {
      if (result.fieldErrors?.password) setError('password', { message: result.fieldErrors.password }, { shouldFocus: true });
      else setErrorText(errorText(result));
      return;
    }
    const signedIn = await signIn('credentials', { email, password: values.password, redirect: false });
    getQueryClient().clear();
    router.replace(signedIn?.ok ? '/' : `/login?done=${kind}`);
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
      <input type="hidden" autoComplete="username" value={email} readOnly />
      <TextField
        id="new-password"
        label={kind === 'invitation' ? t('choose.invitationLabel') : t('choose.resetLabel')}
        type="password"
        autoComplete="new-password"
        hint={t('choose.hint')}
        error={errors.password?.message}
        {...register('password')}
      />
      {error && (
        <Notice tone="error" testId="choose-password-error">
          {error}
        </Notice>
      )}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? t('choose.saving') : kind === 'invitation' ? t('choose.join') : t('choose.save')}
      </Button>
    </form>
  );
}
