'use client';

import { zodResolver } from '@hookform/resolvers/zod';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { addUser } from '@/server/actions/team';
import { Button } from '@/components/ui/button';
import { SelectField, TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { addUserSchema, TEAM_ROLES, type AddUserInput } from '@/lib/actions/team.validation';

export function AddUserForm() {
  const router = useRouter();
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const { register, handleSubmit, setError, reset, formState } = useForm<AddUserInput>({
    resolver: zodResolver(addUserSchema),
    defaultValues: { email: '', password: '', role: 'operator' },
  });
  const { errors, isSubmitting } = formState;

  const onSubmit = handleSubmit(async (values) => {
    setMessage(null);
    const result = await addUser(values);
    if (result.ok) {
      reset();
      setMessage({ tone: 'success', text: `${result.data.email} can now sign in as ${result.data.role}.` });
      router.refresh();
      return;
    }
    const fields = Object.entries(result.fieldErrors ?? {});
    for (const [field, text] of fields) {
      if (field in values) setError(field as keyof AddUserInput, { message: text }, { shouldFocus: true });
    }
    if (fields.length === 0 || fields.some(([f]) => !(f in values))) setMessage({ tone: 'error', text: result.message });
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <TextField id="new-user-email" label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
      <TextField
        id="new-user-password"
        label="Password"
        type="password"
        autoComplete="new-password"
        hint="At least 10 characters. Share it with them safely."
        error={errors.password?.message}
        {...register('password')}
      />
      <SelectField id="new-user-role" label="Role" error={errors.role?.message} {...register('role')}>
        {TEAM_ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </SelectField>
      {message && (
        <Notice tone={message.tone} testId="add-user-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" disabled={isSubmitting} className="sm:w-auto">
        {isSubmitting ? 'Adding…' : 'Add user'}
      </Button>
    </form>
  );
}
