'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { disableTwoFactorSchema, type DisableTwoFactorInput } from '@/lib/actions/account.validation';
import { disableTwoFactor } from '@/server/actions/account';

/** Turning it off takes a current code or a recovery code, so an unattended signed-in tab, or a known password, is not enough. */
export function DisableTwoFactorForm() {
  const t = useTranslations('Account');
  const errorText = useErrorText();
  const [error, setErrorText] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<DisableTwoFactorInput>({
    resolver: zodResolver(disableTwoFactorSchema),
    defaultValues: { proof: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setErrorText(null);
    const result = await disableTwoFactor(values);
    if (result.ok) {
      // Turning it off ended every session of this user, this one too.
      window.location.assign('/login?done=two-factor-off');
      return;
    }
    if (result.fieldErrors?.proof) setError('proof', { message: result.fieldErrors.proof }, { shouldFocus: true });
    else setErrorText(errorText(result));
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('turnOffTwoFactor')}>
      <TextField id="disable-proof" label={t('disableProof')} type="password" autoComplete="off" error={errors.proof?.message} {...register('proof')} />
      {error && (
        <Notice tone="error" testId="disable-two-factor-error">
          {error}
        </Notice>
      )}
      <Button type="submit" variant="danger" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('turningOff') : t('turnOffTwoFactor')}
      </Button>
    </form>
  );
}
