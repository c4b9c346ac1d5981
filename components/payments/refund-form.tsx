'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { newSubmissionId } from '@/components/forms/new-submission-id';
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
        ? `At most ${formatMoney(refundable, currency)} is left to refund of this payment.`
        : (result.fieldErrors?.amount ?? (result.field === 'amount' ? result.message : undefined));
      if (fieldMessage) setError('amount', { message: fieldMessage }, { shouldFocus: true });
      else setOutcome({ tone: 'error', text: result.message });
      return;
    }
    if (!result.data.sent) {
      const a = result.data.approval;
      setOutcome({
        tone: 'success',
        text: `Sent for approval: a refund of ${formatMoney(a.amount, currency)} (${a.reference}). The amount is held on the card until a teammate approves or rejects it.`,
      });
      setOpen(false);
      router.refresh();
      return;
    }
    const r = result.data.refund;
    const debited = result.data.debited === 'card' ? 'The card was debited' : 'The business balance was debited (the card had been cancelled)';
    setOutcome({
      tone: 'success',
      text: `${formatMoney(r.amount, currency)} refunded (${r.refund_reference}). ${debited}${r.status === 'pending' ? '; Chapa repays the payer.' : ' and the payer repaid.'}`,
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
            Refund
          </Button>
        )
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Refund">
          <input type="hidden" {...register('reference')} />
          <input type="hidden" {...register('submission_id')} />
          <TextField
            id="refund-amount"
            label={`Amount to refund (${currency})`}
            inputMode="decimal"
            autoComplete="off"
            hint={`Up to ${formatMoney(refundable, currency)}. The card must still hold it; the service fee is not refunded.`}
            error={errors.amount?.message}
            {...register('amount')}
          />
          <TextField id="refund-reason" label="Reason (optional)" autoComplete="off" maxLength={200} error={errors.reason?.message} {...register('reason')} />
          <p className="text-xs text-slate-600">
            {live ? 'The payer is repaid through Chapa, to the way they paid.' : 'Test mode: the sandbox repays the payer at once.'}
          </p>
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
              {isSubmitting ? 'Refunding…' : typedMinor ? `Refund ${formatMoney(typedMinor, currency)}` : 'Refund'}
            </Button>
            <Button variant="secondary" className="sm:w-auto" disabled={isSubmitting} onClick={() => setOpen(false)}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
