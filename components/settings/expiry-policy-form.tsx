'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { type ExpiryPolicyInput, expiryPolicySchema } from '@/lib/cards/expiry.validation';
import { describeExpiryPolicy, type ExpiryPolicy } from '@/lib/cards/card-expiry';
import { setExpiryPolicy } from '@/server/actions/expiry';

/** The owner's card expiry policy: never (the default), or a number of months after issue or after the last load. */
export function ExpiryPolicyForm({ policy }: { policy: ExpiryPolicy }) {
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
      setMessage({ tone: 'success', text: `Saved. ${describeExpiryPolicy(result.data)}.` });
      router.refresh();
      return;
    }
    const fields = Object.entries(result.fieldErrors ?? {});
    for (const [field, text] of fields) setError(field as keyof ExpiryPolicyInput, { message: text }, { shouldFocus: true });
    if (fields.length === 0) setMessage({ tone: 'error', text: result.message });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Card expiry">
      <div className="grid gap-4 md:grid-cols-2">
        <SelectField id="expiry-policy" label="Cards expire" error={errors.policy?.message} {...register('policy')}>
          <option value="never">Never</option>
          <option value="after_issue">A number of months after issue</option>
          <option value="after_last_load">A number of months after the last load</option>
        </SelectField>
        {chosen !== 'never' && (
          <TextField
            id="expiry-months"
            label="Months"
            inputMode="numeric"
            hint="1 to 120. The card is usable until the end of that day in your time zone."
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
        {isSubmitting ? 'Saving…' : 'Save expiry policy'}
      </Button>
    </form>
  );
}
