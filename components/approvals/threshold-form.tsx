'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { setApprovalThreshold } from '@/server/actions/approvals';
import { Button } from '@/components/ui/button';
import { groupedUnitsText } from '@/lib/money-text';

/** One currency's approval threshold: an amount in currency units, or empty for none. */
export function ThresholdForm({ currency, amount }: { currency: string; amount: number | null }) {
  const router = useRouter();
  const [value, setValue] = useState(amount === null ? '' : groupedUnitsText(amount));
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `threshold-${currency}`;

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    const result = await setApprovalThreshold({ currency, amount: value });
    setBusy(false);
    if (!result.ok) return setMessage({ error: true, text: result.fieldErrors?.amount ?? result.message });
    setMessage({
      error: false,
      text:
        result.data.amount === null
          ? 'No threshold: payouts go at once.'
          : `Saved: payouts of ${currency} ${groupedUnitsText(result.data.amount)} or more wait for approval.`,
    });
    router.refresh();
  };

  return (
    <div>
      <form onSubmit={save} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-end" aria-label={`${currency} threshold`}>
        <label htmlFor={id} className="block flex-1 text-sm">
          <span className="font-medium text-slate-800">{currency}</span>
          <input
            id={id}
            value={value}
            inputMode="decimal"
            placeholder="No threshold"
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={message?.error || undefined}
            aria-describedby={`${id}-message`}
            className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 px-3 py-2 tabular-nums"
          />
        </label>
        <Button type="submit" variant="secondary" className="sm:w-auto" disabled={busy}>
          {busy ? 'Saving…' : `Save ${currency}`}
        </Button>
      </form>
      <p id={`${id}-message`} role={message?.error ? 'alert' : 'status'} className={`mt-1 text-sm ${message?.error ? 'text-red-700' : 'text-slate-700'}`}>
        {message?.text}
      </p>
    </div>
  );
}
