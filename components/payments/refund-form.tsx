'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { newSubmissionId } from '@/components/forms/new-submission-id';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { toMinorUnits } from '@/lib/amount-text';
import { groupedUnitsText } from '@/lib/money-text';
import { refundFormSchema, type RefundFormInput } from '@/lib/actions/refund.validation';
import { refundPayment } from '@/server/actions/refunds';

interface RefundFormProps {
  reference: string;
  currency: string;
  /** What is left to refund, minor units. */
  refundable: number;
  live: boolean;
}

/** The Refund button of a paid payment, opening a small form: the amount (what is left, to start with) and a reason. */
export function RefundForm({ reference, currency, refundable, live }: RefundFormProps) {
  const t = useTranslations('Refunds');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const errorText = useErrorText();
  const money = (minor: number) => formatMoney(minor, currency, locale);
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const fresh = (): RefundFormInput => ({ reference, amount: groupedUnitsText(refundable), reason: '', submission_id: newSubmissionId() });
  const { register, handleSubmit, setError, reset, watch, formState } = useForm<RefundFormInput>({
    resolver: zodResolver(refundFormSchema),
    defaultValues: fresh(),
  });
  const { errors, isSubmitting } = formState;
  const typed = watch('amount');
  const typedMinor = /^[\d,\s]+(\.\d{1,2})?$/.test(typed.trim()) ? toMinorUnits(typed) : null;

  const onSubmit = handleSubmit(async (values) => {
    setOutcome(null);
    const result = await refundPayment(values);
    if (!result.ok) {
      // The core names the limit in minor units for API callers; staff read it in currency units.
      const overLeft = result.code === 'validation_error' && typedMinor !== null && typedMinor > refundable;
      const fieldMessage = overLeft
        ? t('overLeft', { amount: money(refundable) })
        : (result.fieldErrors?.amount ?? (result.field === 'amount' ? errorText(result) : undefined));
      if (fieldMessage) setError('amount', { message: fieldMessage }, { shouldFocus: true });
      else setOutcome({ tone: 'error', text: errorText(result) });
      return;
    }
    if (!result.data.sent) {
      const a = result.data.approval;
      setOutcome({
        tone: 'success',
        text: t('sentForApproval', { amount: money(a.amount), reference: a.reference }),
      });
      setOpen(false);
      router.refresh();
      return;
    }
    const r = result.data.refund;
    setOutcome({
      tone: 'success',
      text: t(`refunded.${result.data.debited === 'card' ? 'card' : 'business'}.${r.status === 'pending' ? 'pending' : 'repaid'}`, {
        amount: money(r.amount),
        reference: r.refund_reference,
      }),
    });
    setOpen(false);
    reset({ ...fresh(), amount: groupedUnitsText(r.refundable_amount) });
    router.refresh();
  });

  return (
    <div className="space-y-3">
      {outcome && (
        <Notice tone={outcome.tone} testId="refund-outcome">
          {outcome.text}
        </Notice>
      )}
      {!open ? (
        refundable > 0 && (
          <Button variant="secondary" className="sm:w-auto" onClick={() => setOpen(true)}>
            {t('refund')}
          </Button>
        )
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label={t('refund')}>
          <input type="hidden" {...register('reference')} />
          <input type="hidden" {...register('submission_id')} />
          <TextField
            id="refund-amount"
            label={t('amount', { currency })}
            inputMode="decimal"
            autoComplete="off"
            hint={t('amountHint', { amount: money(refundable) })}
            error={errors.amount?.message}
            {...register('amount')}
          />
          <TextField id="refund-reason" label={t('reason')} autoComplete="off" maxLength={200} error={errors.reason?.message} {...register('reason')} />
          <p className="text-xs text-slate-600">{live ? t('live') : t('test')}</p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
              {isSubmitting ? t('refunding') : typedMinor ? t('refundAmount', { amount: money(typedMinor) }) : t('refund')}
            </Button>
            <Button variant="secondary" className="sm:w-auto" disabled={isSubmitting} onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
