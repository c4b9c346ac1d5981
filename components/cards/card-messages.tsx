'use client';

import { useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { useErrorText } from '@/components/forms/use-error-text';
import { Button } from '@/components/ui/button';
import { Notice } from '@/components/ui/notice';
import { resendCardLink } from '@/server/actions/cards';

/** "Resend link": a new card page link to the holder's phone (or email); the old link stops working. */
export function ResendLinkButton({ cardNumber, hasEmail }: { cardNumber: string; hasEmail: boolean }) {
  const t = useTranslations('Card');
  const errorText = useErrorText();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const send = (channel: 'sms' | 'email') =>
    start(async () => {
      const result = await resendCardLink({ card_number: cardNumber, channel });
      setNotice(result.ok ? { tone: 'success', text: t('linkResent') } : { tone: 'error', text: errorText(result) });
      router.refresh();
    });
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="secondary" disabled={pending} onClick={() => send('sms')} className="sm:w-auto">
          {t('resendLinkSms')}
        </Button>
        {hasEmail && (
          <Button type="button" variant="secondary" disabled={pending} onClick={() => send('email')} className="sm:w-auto">
            {t('resendLinkEmail')}
          </Button>
        )}
      </div>
      {notice && (
        <Notice tone={notice.tone} testId="resend-link-notice">
          {notice.text}
        </Notice>
      )}
    </div>
  );
}
