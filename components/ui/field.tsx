import type { ComponentProps, ReactNode } from 'react';
import { useFieldText } from '@/components/forms/field-text';

const control =
  'mt-1 block w-full min-h-11 rounded-lg border bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-emerald-700';

interface FieldShell {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
}

/** A labelled control with its hint or error below; the control ties itself to them with aria-describedby. */
export function FormField({ id, label, error, hint, children }: FieldShell & { children: ReactNode }) {
  const fieldText = useFieldText();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {fieldText(error)}
        </p>
      )}
    </div>
  );
}

const describedBy = (id: string, error?: string, hint?: ReactNode) => (error ? `${id}-error` : hint ? `${id}-hint` : undefined);

/** A labelled input whose error is announced with it (aria-describedby) and marked invalid. */
export function TextField({ id, label, error, hint, className = '', ...props }: FieldShell & ComponentProps<'input'>) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={`${control} ${error ? 'border-red-600' : 'border-slate-300'} ${className}`}
        {...props}
      />
    </FormField>
  );
}

export function SelectField({ id, label, error, hint, className = '', children, ...props }: FieldShell & ComponentProps<'select'>) {
  return (
    <FormField id={id} label={label} error={error} hint={hint}>
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
        className={`${control} ${error ? 'border-red-600' : 'border-slate-300'} ${className}`}
        {...props}
      >
        {children}
      </select>
    </FormField>
  );
}
