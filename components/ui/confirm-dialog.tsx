'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Button } from './button';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  pending?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** The native <dialog> in modal mode: focus is trapped, Escape closes it, and the page behind is inert. */
export function ConfirmDialog({ open, title, children, confirmLabel, cancelLabel, pending, onConfirm, onClose }: ConfirmDialogProps) {
  const t = useTranslations('ConfirmDialog');
  const ref = useRef<HTMLDialogElement>(null);
  // Unique per dialog: a page with two forms that ask (the card page's top-up and redeem) names each dialog by its own title.
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onClose={onClose}
      className="m-auto w-[calc(100%-2rem)] max-w-md rounded-xl p-0 shadow-xl backdrop:bg-slate-900/50"
    >
      <div className="p-5">
        <h2 id={titleId} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        <div className="mt-2 text-sm text-slate-700 [overflow-wrap:anywhere]">{children}</div>
        <div className="mt-5 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" className="sm:w-auto" onClick={onClose} disabled={pending}>
            {cancelLabel ?? t('back')}
          </Button>
          <Button variant="danger" className="sm:w-auto" onClick={onConfirm} disabled={pending}>
            {pending ? t('working') : confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
