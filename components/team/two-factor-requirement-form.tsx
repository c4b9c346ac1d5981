'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { setTwoFactorRequired } from '@/server/actions/team';

/** The owner's switch for the whole business; users without two-factor sign-in are then sent to set it up first. */
export function TwoFactorRequirementForm({ required, withoutTwoFactor }: { required: boolean; withoutTwoFactor: number }) {
  const router = useRouter();
  const [checked, setChecked] = useState(required);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <form
      aria-label="Two-factor requirement"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        startTransition(async () => {
          const res = await setTwoFactorRequired({ required: checked });
          if (res.ok) {
            setMessage({
              tone: 'success',
              text: res.data.required ? 'Required. Users without it are sent to set it up before anything else.' : 'No longer required.',
            });
          } else {
            setChecked(required);
            setMessage({ tone: 'error', text: res.message });
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
          Require two-factor sign-in for everyone in this business
          <span className="block text-xs text-slate-600">
            {withoutTwoFactor === 0 ? 'Every user has it on.' : `${withoutTwoFactor} ${withoutTwoFactor === 1 ? 'user has' : 'users have'} it off now.`}
          </span>
        </span>
      </label>
      {message && (
        <Notice tone={message.tone} testId="two-factor-requirement-notice">
          {message.text}
        </Notice>
      )}
      <Button type="submit" variant="secondary" disabled={pending || checked === required} className="sm:w-auto">
        {pending ? 'Saving…' : 'Save requirement'}
      </Button>
    </form>
  );
}
