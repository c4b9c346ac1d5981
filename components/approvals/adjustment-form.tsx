'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { requestAdjustment } from '@/server/actions/approvals';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { useErrorText } from '@/components/forms/use-error-text';
import { RadioCard } from '@/components/forms/form-controls';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { ADJUSTMENT_REASONS } from '@/lib/adjustments/adjustment-reasons';
import { type AdjustmentForm, type AdjustmentValues, adjustmentFormSchema } from '@/lib/actions/approval.validation';

/** A manual adjustment of the card's balance against the business account; it always waits for a teammate's approval. */
export function AdjustmentFormView({ cardNumber, currency }: { cardNumber: string; currency: string }) {
  const t = useTranslations('CardActions');
  const reasons = useTranslations('Approvals');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const errorText = useErrorText();
  const router = useRouter();
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, reset, getValues, formState } = useForm<AdjustmentForm, unknown, AdjustmentValues>({
    resolver: zodResolver(adjustmentFormSchema),
    defaultValues: { card_number: cardNumber, direction: 'increase', amount: '', reason_code: 'goodwill', note: '', submission_id: newSubmissionId() },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async () => {
    setOutcome(null);
    // The text as typed goes to the server, which parses it again with the same schema.
    const values = getValues();
    const result = await requestAdjustment(values);
    if (!result.ok) {
      const fields = result.fieldErrors ?? (result.field ? { [result.field]: errorText(result) } : {});
      const placed = Object.entries(fields).filter(([f]) => f === 'amount' || f === 'note');
      for (const [f, message] of placed) setError(f as 'amount' | 'note', { message }, { shouldFocus: true });
      if (placed.length === 0) setOutcome({ tone: 'error', text: errorText(result) });
      return;
    }
    reset({ card_number: cardNumber, direction: values.direction, amount: '', reason_code: 'goodwill', note: '', submission_id: newSubmissionId() });
    const d = result.data;
    setOutcome({
      tone: 'success',
      text: t(`adjust.sent.${values.direction === 'decrease' ? 'decrease' : 'increase'}`, {
        amount: formatMoney(d.amount, currency, locale),
        reference: d.reference,
      }),
    });
    router.refresh();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('adjust.label')}>
      <input type="hidden" {...register('card_number')} />
      <input type="hidden" {...register('submission_id')} />
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">{t('adjust.legend')}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          <RadioCard value="increase" title={t('adjust.increase')} hint={t('adjust.increaseHint')} {...register('direction')} />
          <RadioCard value="decrease" title={t('adjust.decrease')} hint={t('adjust.decreaseHint')} {...register('direction')} />
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="adjustment-amount"
          label={t('adjust.amount', { currency })}
          inputMode="decimal"
          autoComplete="off"
          placeholder="25.00"
          error={errors.amount?.message}
          {...register('amount')}
        />
        <SelectField id="adjustment-reason" label={t('adjust.reason')} error={errors.reason_code?.message} {...register('reason_code')}>
          {ADJUSTMENT_REASONS.map((r) => (
            <option key={r} value={r}>
              {reasons(`reasons.${r}`)}
            </option>
          ))}
        </SelectField>
      </div>
      <TextField id="adjustment-note" label={t('adjust.note')} hint={t('adjust.noteHint')} error={errors.note?.message} {...register('note')} />
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? t('adjust.sending') : t('adjust.send')}
      </Button>
      {outcome && (
        <Notice tone={outcome.tone} testId="adjustment-outcome">
          {outcome.text}
        </Notice>
      )}
    </form>
  );
}
