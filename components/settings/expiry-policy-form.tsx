'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { type ExpiryPolicyInput, expiryPolicySchema } from '@/lib/cards/expiry.validation';
import type { ExpiryPolicy } from '@/lib/cards/card-expiry';
import { useErrorText } from '@/components/forms/use-error-text';
import { setExpiryPolicy } from '@/server/actions/expiry';

/** The owner's card expiry policy: never (the default), or a number of months after issue or after the last load. */
export function ExpiryPolicyForm({ policy }: { policy: ExpiryPolicy }) {
  const t = useTranslations('Settings');
  const errorText = useErrorText();
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, control, formState } = useForm<ExpiryPolicyInput, unknown, z.output<typeof expiryPolicySchema>>({
    resolver: zodResolver(expiryPolicySchema),
    defaultValues: { policy: policy.kind, months: policy.kind === 'never' ? undefined : policy.months },
  });
  const chosen = useWatch({ control, name: 'policy' });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await setExpiryPolicy(values.policy === 'never' ? { policy: 'never' } : values);
    if (result.ok) {
      setMessage({
        tone: 'success',
        text: t('expiry.saved', { policy: result.data.kind, months: result.data.kind === 'never' ? 0 : result.data.months }),
      });
      router.refresh();
      return;
    }
    const fields = Object.entries(result.fieldErrors ?? {});
    for (const [field, text] of fields) setError(field as keyof ExpiryPolicyInput, { message: text }, { shouldFocus: true });
    if (fields.length === 0) setMessage({ tone: 'error', text: errorText(result) });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('expiryTitle')}>
      <div className="grid gap-4 md:grid-cols-2">
        <SelectField id="expiry-policy" label={t('expiry.cardsExpire')} error={errors.policy?.message} {...register('policy')}>
          <option value="never">{t('expiry.never')}</option>
          <option value="after_issue">{t('expiry.afterIssue')}</option>
          <option value="after_last_load">{t('expiry.afterLastLoad')}</option>
        </SelectField>
        {chosen !== 'never' && (
          <TextField
            id="expiry-months"
            label={t('expiry.months')}
            inputMode="numeric"
            hint={t('expiry.monthsHint')}
            error={errors.months?.message}
            {...register('months')}
          />
        )}
      </div>
      {message && (
        <Notice tone={message.tone} testId="expiry-policy-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('saving') : t('expiry.save')}
      </Button>
    </form>
  );
}
