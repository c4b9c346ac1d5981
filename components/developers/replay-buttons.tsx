'use client';

import { useQueryClient } from '@tanstack/react-query';
import { liveKeys } from '@/components/payouts-list/list-items';
import { useState, useTransition } from 'react';
import { replayEvent, replayFailedWebhooks } from '@/server/actions/developers';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { Notice } from '@/components/ui/notice';
import { wallClockInput } from '@/lib/time-zone';

export function ReplayEventButton({ eventId }: { eventId: string }) {
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
        aria-label={`Replay event ${eventId}`}
        onClick={() =>
          startTransition(async () => {
            const res = await replayEvent({ event_id: eventId });
            setResult(res.ok ? { ok: res.data.queued, text: res.data.message } : { ok: false, text: res.message });
            // The log then follows the delivery by itself while it is pending (LiveDeliveryLog).
            await queryClient.invalidateQueries({ queryKey: liveKeys.deliveries });
          })
        }
      >
        {pending ? 'Replaying…' : 'Replay'}
      </Button>
      <span role="status" className={`max-w-xs text-xs ${result?.ok === false ? 'text-red-800' : 'text-slate-700'}`} data-testid="replay-verdict">
        {result?.text}
      </span>
    </div>
  );
}

/** Every failed delivery of a period, sent again; the period is typed on the business's wall clock, as every date in the dashboard. */
export function ReplayFailedForm({ timeZone }: { timeZone: string }) {
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
              text: res.data.deliveries
                ? `Queued ${res.data.deliveries} failed ${res.data.deliveries === 1 ? 'delivery' : 'deliveries'}: they will be sent within a few seconds.`
                : 'Nothing to send: no delivery failed for good in this period.',
            });
            await queryClient.invalidateQueries({ queryKey: liveKeys.deliveries });
          } else if (res.fieldErrors) setErrors(res.fieldErrors);
          else setMessage({ tone: 'error', text: res.message });
        });
      }}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField id="replay-from" label="From" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} error={errors.from} />
        <TextField id="replay-to" label="To" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} error={errors.to} />
      </div>
      <Button type="submit" variant="secondary" disabled={pending} className="sm:w-auto">
        {pending ? 'Replaying…' : 'Replay failed events of this period'}
      </Button>
      {message && <Notice tone={message.tone}>{message.text}</Notice>}
    </form>
  );
}
