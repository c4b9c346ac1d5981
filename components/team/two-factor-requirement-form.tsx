'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useErrorText } from '@/components/forms/use-error-text';
import { useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { setTwoFactorRequired } from '@/server/actions/team';

/** The owner's switch for the whole business; users without two-factor sign-in are then sent to set it up first. */
export function TwoFactorRequirementForm({ required, withoutTwoFactor }: { required: boolean; withoutTwoFactor: number }) {
  const t = useTranslations('TeamForms');
  const errorText = useErrorText();
  const router = useRouter();
  const [checked, setChecked] = useState(required);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <form
      aria-label={t('twoFactor.label')}
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        startTransition(async () => {
          const res = await setTwoFactorRequired({ required: checked });
          if (res.ok) {
            setMessage({
              tone: 'success',
              text: res.data.required ? t('twoFactor.required') : t('twoFactor.notRequired'),
            });
          } else {
            setChecked(required);
            setMessage({ tone: 'error', text: errorText(res) });
          }
          router.refresh();
        });
      }}
    >
      <label className="flex min-h-10 items-start gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => setChecked(e.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-emerald-700"
          data-testid="require-two-factor"
        />
        <span>
          {t('twoFactor.require')}
          <span className="block text-xs text-slate-600">
            {withoutTwoFactor === 0 ? t('twoFactor.allOn') : t('twoFactor.someOff', { count: withoutTwoFactor })}
          </span>
        </span>
      </label>
      {message && (
        <Notice tone={message.tone} testId="two-factor-requirement-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" variant="secondary" disabled={pending || checked === required} className="sm:w-auto">
        {pending ? t('saving') : t('twoFactor.save')}
      </Button>
    </form>
  );
}
