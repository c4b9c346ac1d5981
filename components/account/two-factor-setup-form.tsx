'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button, buttonClass } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { useErrorText } from '@/components/forms/use-error-text';
import { confirmTwoFactorSchema, type ConfirmTwoFactorInput } from '@/lib/actions/account.validation';
import { confirmTwoFactor } from '@/server/actions/account';

/**
 * The first code turns two-factor sign-in on; the recovery codes then take the
 * place of the key and the form (`steps`), shown this once.
 */
export function TwoFactorSetupForm({ steps }: { steps: ReactNode }) {
  const t = useTranslations('TwoFactorSetup');
  const errorText = useErrorText();
  const [codes, setCodes] = useState<string[] | null>(null);
  const [error, setErrorText] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<ConfirmTwoFactorInput>({
    resolver: zodResolver(confirmTwoFactorSchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setErrorText(null);
    const result = await confirmTwoFactor(values);
    if (result.ok) {
      setCodes(result.data.recoveryCodes);
      return;
    }
    if (result.fieldErrors?.code) setError('code', { message: result.fieldErrors.code }, { shouldFocus: true });
    else setErrorText(errorText(result));
  });

  if (codes) {
    return (
      <div className="space-y-4">
        <Notice tone="success" testId="two-factor-on">
          {t('on')}
        </Notice>
        <div>
          <h2 className="text-base font-semibold text-slate-900">{t('recoveryTitle')}</h2>
          <p className="mt-1 text-sm text-slate-700">{t('recoveryIntro')}</p>
          <ol
            className="mt-3 grid grid-cols-2 gap-2 rounded-lg bg-slate-50 p-3 font-mono text-sm text-slate-900 ring-1 ring-slate-200"
            data-testid="recovery-codes"
          >
            {codes.map((c) => (
              <li key={c}>{c}</li>
            ))}
          </ol>
        </div>
        {/* Turning it on ended every session, this one too: a full load of the sign-in page. */}
        <a href="/login?done=two-factor-on" className={`${buttonClass()} w-full`}>
          {t('saved')}
        </a>
      </div>
    );
  }

  return (
    <>
      {steps}
      <form onSubmit={onSubmit} noValidate className="mt-3 space-y-4" aria-label={t('formLabel')}>
        <TextField
          id="setup-code"
          label={t('codeLabel')}
          inputMode="numeric"
          autoComplete="one-time-code"
          hint={t('codeHint')}
          error={errors.code?.message}
          {...register('code')}
        />
        {error && (
          <Notice tone="error" testId="two-factor-setup-error">
            {error}
          </Notice>
        )}
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? t('checking') : t('submit')}
        </Button>
      </form>
    </>
  );
}
