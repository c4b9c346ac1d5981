'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from './button';

/** A value to hand on (a link, a secret) in a read-only box with a copy button; the text stays selectable where the clipboard is refused. */
export function CopyField({
  id,
  label,
  value,
  hideLabel = false,
  copyLabel,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  /** For a box whose purpose the text around it already says. */
  hideLabel?: boolean;
  copyLabel?: string;
  testId?: string;
}) {
  const t = useTranslations('CopyField');
  const [copied, setCopied] = useState(false);
  return (
    <div>
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'block text-sm font-medium text-slate-800'}>
        {label}
      </label>
      <div className={`${hideLabel ? '' : 'mt-1 '}flex flex-col gap-2 sm:flex-row`}>
        <input
          id={id}
          data-testid={testId}
          readOnly
          value={value}
          onFocus={(e) => e.currentTarget.select()}
          className="min-h-11 w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900 focus-visible:outline-3 focus-visible:outline-emerald-700"
        />
        <Button
          variant="secondary"
          block={false}
          className="shrink-0"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => undefined);
            setCopied(true);
          }}
        >
          {copied ? t('copied') : (copyLabel ?? t('copy'))}
        </Button>
      </div>
      <p aria-live="polite" className="sr-only">
        {copied ? t('copiedAnnounce') : ''}
      </p>
    </div>
  );
}
