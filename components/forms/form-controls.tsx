import type { ComponentProps, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

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

/** One option of a radio group drawn as a card; the whole card is the click target and shows the choice. */
export function RadioChoice({ children, ...props }: ComponentProps<'input'> & { children: ReactNode }) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-3 py-2 text-sm ring-1 ring-slate-300 has-[:checked]:bg-emerald-50 has-[:checked]:ring-emerald-700">
      <input type="radio" {...props} className="h-4 w-4 shrink-0 accent-emerald-700" />
      {children}
    </label>
  );
}

/** One option of a radio group drawn as a larger card with a title and a line under it (where money comes from or goes). */
export function RadioCard({ title, hint, ...props }: ComponentProps<'input'> & { title: ReactNode; hint: ReactNode }) {
  return (
    <label className="flex min-h-11 cursor-pointer items-start gap-2 rounded-lg border border-slate-300 p-3 has-[:checked]:border-emerald-700 has-[:checked]:bg-emerald-50">
      <input type="radio" className="mt-1 accent-emerald-700" {...props} />
      <span>
        <span className="block font-medium">{title}</span>
        <span className="block text-xs text-slate-600">{hint}</span>
      </span>
    </label>
  );
}

/** A form's refusal that belongs to no field. */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-800 ring-1 ring-red-200">
      {children}
    </p>
  );
}
