'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useTranslations } from 'next-intl';
import { useErrorText } from '@/components/forms/use-error-text';
import { liveKeys } from '@/components/payouts-list/list-items';
import { useState, useTransition } from 'react';
import { replayEvent, replayFailedWebhooks } from '@/server/actions/developers';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { wallClockInput } from '@/lib/time-zone';
import type { ReplayVerdict } from '@/lib/webhooks/replay';

export function ReplayEventButton({ eventId }: { eventId: string }) {
  const t = useTranslations('DevelopersLog');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        variant="secondary"
        size="xs"
        block={false}
        disabled={pending}
        aria-label={t('replayEvent', { id: eventId })}
        onClick={() =>
          startTransition(async () => {
            const verdictText = (v: ReplayVerdict) =>
              v.state === 'in_flight' ? t('verdicts.in_flight', { ago: v.lastAttemptSecondsAgo, wait: v.waitSeconds }) : t(`verdicts.${v.state}`);
            const res = await replayEvent({ event_id: eventId });
            setResult(res.ok ? { ok: res.data.queued, text: verdictText(res.data.verdict) } : { ok: false, text: errorText(res) });
            // The log then follows the delivery by itself while it is pending (LiveDeliveryLog).
            await queryClient.invalidateQueries({ queryKey: liveKeys.deliveries });
          })
        }
      >
        {pending ? t('replaying') : t('replay')}
      </Button>
      <span role="status" className={`max-w-xs text-xs ${result?.ok === false ? 'text-red-800' : 'text-slate-700'}`} data-testid="replay-verdict">
        {result?.text}
      </span>
    </div>
  );
}

/** Every failed delivery of a period, sent again; the period is typed on the business's wall clock, as every date in the dashboard. */
export function ReplayFailedForm({ timeZone }: { timeZone: string }) {
  const t = useTranslations('DevelopersLog');
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [from, setFrom] = useState(() => wallClockInput(timeZone, new Date(Date.now() - 24 * 3600_000)));
  const [to, setTo] = useState(() => wallClockInput(timeZone, new Date(Date.now() + 60_000)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  return (
    <form
      noValidate
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        startTransition(async () => {
          setErrors({});
          setMessage(null);
          const res = await replayFailedWebhooks({ from, to });
          if (res.ok) {
            setMessage({
              tone: 'success',
              text: res.data.deliveries ? t('replayedFailed', { count: res.data.deliveries }) : t('nothingToReplay'),
            });
            await queryClient.invalidateQueries({ queryKey: liveKeys.deliveries });
          } else if (res.fieldErrors) setErrors(res.fieldErrors);
          else setMessage({ tone: 'error', text: errorText(res) });
        });
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField id="replay-from" label={t('from')} type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} error={errors.from} />
        <TextField id="replay-to" label={t('to')} type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} error={errors.to} />
      </div>
      <Button type="submit" variant="secondary" disabled={pending} className="sm:w-auto">
        {pending ? t('replaying') : t('replayPeriod')}
      </Button>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </form>
  );
}
