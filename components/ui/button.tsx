import type { ButtonHTMLAttributes } from 'react';

const VARIANTS = {
  primary: 'bg-emerald-700 font-semibold text-white hover:bg-emerald-800 focus-visible:outline-emerald-700',
  secondary: 'bg-white font-semibold text-slate-800 ring-1 ring-inset ring-slate-300 hover:bg-slate-100 focus-visible:outline-slate-700',
  danger: 'bg-white font-semibold text-red-700 ring-1 ring-inset ring-red-300 hover:bg-red-50 focus-visible:outline-red-700',
  /** Reads as text until pointed at, like the header's links beside it. */
  ghost: 'font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-emerald-700',
} as const;

/** md is the forms' size (a 44 px touch target); sm sits in toolbars and filters; xs in a table's row or a header. */
const SIZES = {
  md: 'min-h-11 px-4 py-2.5 text-base',
  sm: 'min-h-10 px-4 py-2 text-sm',
  xs: 'min-h-10 px-3 py-1 text-sm',
} as const;

export type ButtonVariant = keyof typeof VARIANTS;
export type ButtonSize = keyof typeof SIZES;

/** The classes of a button of this variant and size, for the <button> below and for links drawn as buttons. */
export function buttonClass(variant: ButtonVariant = 'primary', size: ButtonSize = 'md'): string {
  return `inline-flex items-center justify-center rounded-lg transition-colors focus-visible:outline-3 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60 ${SIZES[size]} ${VARIANTS[variant]}`;
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** As wide as its container (the default, as on a phone form); false for its content's width. */
  block?: boolean;
}

/** A real <button>: keyboard and screen readers get it for free; the outline shows where focus is. */
export function Button({ variant = 'primary', size = 'md', block = true, className = '', type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={`${buttonClass(variant, size)} ${block ? 'w-full' : ''} ${className}`} {...props} />;
}
