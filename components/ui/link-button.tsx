import Link from 'next/link';
import type { ReactNode } from 'react';
import { type ButtonSize, type ButtonVariant, buttonClass } from './button';

/** A link that looks like a button: a page of ours (client navigation), or a file to download. */
export function LinkButton({
  href,
  variant = 'primary',
  size = 'sm',
  download = false,
  rel,
  className = '',
  children,
}: {
  href: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  download?: boolean;
  rel?: string;
  className?: string;
  children: ReactNode;
}) {
  const classes = `${buttonClass(variant, size)} ${className}`;
  return download ? (
    <a href={href} download className={classes}>
      {children}
    </a>
  ) : (
    <Link href={href} rel={rel} className={classes}>
      {children}
    </Link>
  );
}
