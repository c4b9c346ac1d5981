'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { disableTwoFactorSchema, type DisableTwoFactorInput } from '@/lib/actions/account.validation';
import { disableTwoFactor } from '@/server/actions/account';

/** Turning it off takes a current code or the password, so an unattended signed-in tab is not enough. */
export function DisableTwoFactorForm() {
  const router = useRouter();
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
      router.refresh();
      return;
    }
    if (result.fieldErrors?.proof) setError('proof', { message: result.fieldErrors.proof }, { shouldFocus: true });
    else setErrorText(result.message);
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Turn off two-factor sign-in">
      <TextField
        id="disable-proof"
        label="A current code, or your password"
        type="password"
        autoComplete="off"
        error={errors.proof?.message}
        {...register('proof')}
      />
      {error && (
        <Notice tone="error" testId="disable-two-factor-error">
          {error}
        </Notice>
      )}
      <Button type="submit" variant="danger" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? 'Turning off…' : 'Turn off two-factor sign-in'}
      </Button>
    </form>
  );
}
