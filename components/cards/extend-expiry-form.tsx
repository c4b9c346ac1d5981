'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { useErrorText } from '@/components/forms/use-error-text';
import { useBusinessPreferences } from '@/components/providers/business-preferences';
import { formatCalendarDay } from '@/lib/i18n/date-text';
import { type ExtendExpiryInput, extendExpirySchema } from '@/lib/cards/expiry.validation';
import { extendCardExpiry } from '@/server/actions/expiry';

/** A later last day for one card, with the reason kept in the audit log and on the card's history. */
export function ExtendExpiryForm({ cardNumber, currentDay }: { cardNumber: string; currentDay: string }) {
  const t = useTranslations('CardActions');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const { calendar = 'gregorian' } = useBusinessPreferences();
  const errorText = useErrorText();
  /** A YYYY-MM-DD day as the reader reads it: their language and calendar. */
  const day = (iso: string) => formatCalendarDay(iso, { locale, calendar });
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, reset, watch, formState } = useForm<ExtendExpiryInput>({
    resolver: zodResolver(extendExpirySchema),
    defaultValues: { card_number: cardNumber, expires_on: '', reason: '' },
  });
  const { errors, isSubmitting } = formState;
  const id = `extend-${cardNumber}`;
  const picked = watch('expires_on');

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await extendCardExpiry(values);
    if (result.ok) {
      setMessage({ tone: 'success', text: t('extended', { day: day(values.expires_on) }) });
      reset({ card_number: cardNumber, expires_on: '', reason: '' });
      router.refresh();
      return;
    }
    const fields = Object.entries(result.fieldErrors ?? {});
    for (const [field, text] of fields) setError(field as keyof ExtendExpiryInput, { message: text }, { shouldFocus: true });
    if (fields.length === 0) setMessage({ tone: 'error', text: errorText(result) });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label={t('extendLabel', { lastFour: cardNumber.slice(-4) })}>
      <input type="hidden" {...register('card_number')} />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          id={`${id}-date`}
          label={t('newLastDay')}
          type="date"
          min={currentDay}
          // The browser's picker is Gregorian: the chosen day is said back in the reader's calendar.
          hint={/^\d{4}-\d{2}-\d{2}$/.test(picked ?? '') ? t('pickedDay', { day: day(picked) }) : t('afterDay', { day: day(currentDay) })}
          error={errors.expires_on?.message}
          {...register('expires_on')}
        />
        <TextField id={`${id}-reason`} label={t('extendReason')} maxLength={200} error={errors.reason?.message} {...register('reason')} />
      </div>
      {message && (
        <Notice tone={message.tone} testId="extend-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto" variant="secondary">
        {isSubmitting ? t('extending') : t('extend')}
      </Button>
    </form>
  );
}
