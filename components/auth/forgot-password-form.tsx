'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useErrorText } from '@/components/forms/use-error-text';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { forgotPasswordSchema } from '@/lib/actions/account.validation';
import { forgotPassword } from '@/server/actions/links';

/** The email to mail a reset link to; the answer is the same whether an account has it or not. */
export function ForgotPasswordForm() {
  const t = useTranslations('SignInLinks');
  const errorText = useErrorText();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setErrorText] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<{ email: string }>({
    resolver: zodResolver(forgotPasswordSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = formState;
  const onSubmit = handleSubmit(async (values) => {
    setErrorText(null);
    const result = await forgotPassword(values);
    if (!result.ok) {
      if (result.fieldErrors?.email) setError('email', { message: result.fieldErrors.email }, { shouldFocus: true });
      else setErrorText(errorText(result));
      return;
    }
    setSentTo(result.data.email);
  });
  if (sentTo) {
    return (
      <div className="mt-4">
        <Notice tone="success" testId="forgot-sent">
          {t.rich('forgot.sent', { email: () => <span className="break-all">{sentTo}</span> })}
        </Notice>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="mt-4 space-y-4" noValidate>
      <TextField id="forgot-email" label={t('forgot.email')} type="email" autoComplete="email" error={errors.email?.message} {...register('email')} />
      {error && (
        <Notice tone="error" testId="forgot-error">
          {error}
        </Notice>
      )}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? t('forgot.sending') : t('forgot.submit')}
      </Button>
    </form>
  );
}
