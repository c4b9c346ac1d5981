'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { useErrorText } from '@/components/forms/use-error-text';
import { groupedUnitsText } from '@/lib/money-text';
import { type LimitsFormInput, limitsFormSchema } from '@/lib/actions/limits.validation';
import type { CurrencyLimits } from '@/lib/limits/business-limits';
import { updateLimits } from '@/server/actions/limits';

const FIELDS = ['max_payout', 'daily_payout', 'max_card_balance', 'spend_code_over'] as const;

const asText = (minor: number | null) => (minor === null ? '' : groupedUnitsText(minor));

/** One currency's limits in currency units; an empty field is no limit. */
export function LimitsForm({ limits, mode }: { limits: CurrencyLimits; mode: string }) {
  const t = useTranslations('Settings');
  const shell = useTranslations('Shell');
  const errorText = useErrorText();
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, getValues, formState } = useForm<LimitsFormInput, unknown, z.output<typeof limitsFormSchema>>({
    resolver: zodResolver(limitsFormSchema),
    defaultValues: {
      currency: limits.currency,
      max_payout: asText(limits.max_payout),
      daily_payout: asText(limits.daily_payout),
      max_card_balance: asText(limits.max_card_balance),
      spend_code_over: asText(limits.spend_code_over),
    },
  });
  const { errors, isSubmitting } = formState;
  const c = limits.currency;

  // The server parses what was typed again: the checked values here only gate the request.
  const onSubmit = handleSubmit(async () => {
    setMessage(null);
    const result = await updateLimits(getValues());
    if (result.ok) {
      setMessage({ tone: 'success', text: t('limits.saved', { currency: c, mode: shell(`modes.${mode}`) }) });
      router.refresh();
      return;
    }
    const fields = Object.entries(result.fieldErrors ?? {});
    for (const [field, text] of fields) setError(field as keyof LimitsFormInput, { message: text }, { shouldFocus: true });
    if (fields.length === 0) setMessage({ tone: 'error', text: errorText(result) });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('limitsTitle', { currency: c })} data-testid={`limits-${c}`}>
      <input type="hidden" {...register('currency')} />
      <div className="grid gap-4 md:grid-cols-2">
        {FIELDS.map((name) => (
          <TextField
            key={name}
            id={`limit-${c}-${name}`}
            label={t(`limits.${name}.label`, { currency: c })}
            hint={t(`limits.${name}.hint`)}
            placeholder={t('limits.none')}
            inputMode="decimal"
            autoComplete="off"
            error={errors[name]?.message}
            {...register(name)}
          />
        ))}
      </div>
      {message && (
        <Notice tone={message.tone} testId={`limits-${c}-notice`}>
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('saving') : t('limits.save', { currency: c })}
      </Button>
    </form>
  );
}
