import type { InputHTMLAttributes, SelectHTMLAttributes } from 'react';

const control =
  'mt-1 block w-full rounded-lg border bg-white px-3 py-2 text-base text-slate-900 focus-visible:outline-2 focus-visible:outline-emerald-700 aria-[invalid=true]:border-red-600';

export function TextInput({ invalid, ...props }: InputHTMLAttributes<HTMLInputElement> & { invalid?: boolean }) {
  return (
    <input
      {...props}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? `${props.id}-error` : undefined}
      className={`${control} border-slate-300 ${props.className ?? ''}`}
    />
  );
}

export function SelectInput({ invalid, ...props }: SelectHTMLAttributes<HTMLSelectElement> & { invalid?: boolean }) {
  return (
    <select
      {...props}
      aria-invalid={invalid || undefined}
      aria-describedby={invalid ? `${props.id}-error` : undefined}
      className={`${control} border-slate-300`}
    />
  );
}
