'use client';

import { useTranslations } from 'next-intl';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import type { TillCard } from '@/lib/dashboard/till';

const KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '0', '⌫'] as const;
export type TillKey = (typeof KEYS)[number];

/** The amount's keypad: out of the Tab order, so the keyboard goes from the amount to Redeem and Hold. */
export function TillKeypad({ onKey }: { onKey: (key: TillKey) => void }) {
  const t = useTranslations('Till');
  return (
    <fieldset className="grid grid-cols-3 gap-2">
      <legend className="sr-only">{t('keypad')}</legend>
      {KEYS.map((key) => (
        <button
          key={key}
          type="button"
          tabIndex={-1}
          onClick={() => onKey(key)}
          aria-label={key === '⌫' ? t('backspace') : key}
          className="min-h-14 rounded-lg border border-slate-300 bg-white text-2xl font-semibold text-slate-900 active:bg-slate-100"
        >
          {key}
        </button>
      ))}
    </fieldset>
  );
}

type TillCardHold = TillCard['holds'][number];

/** A card's open holds, each with Capture and Void. */
export function TillHolds(props: {
  holds: TillCardHold[];
  busy: boolean;
  money: (minor: number, currency: string) => string;
  onCapture: (hold: TillCardHold) => void;
  onVoid: (hold: TillCardHold) => void;
}) {
  const { holds, busy, money, onCapture, onVoid } = props;
  const t = useTranslations('Till');
  if (holds.length === 0) return null;
  return (
    <section aria-labelledby="till-holds" className="space-y-2">
      <h2 id="till-holds" className="text-sm font-semibold text-slate-800">
        {t('openHolds')}
      </h2>
      <ul className="space-y-2">
        {holds.map((h) => (
          <li key={h.hold_reference} className="rounded-lg border border-slate-300 p-3" data-testid="till-hold">
            <p className="flex justify-between text-sm">
              <span className="font-semibold tabular-nums">{money(h.amount, h.currency)}</span>
              <span className="text-slate-600">
                <LocalTime iso={h.created_at} />
              </span>
            </p>
            <div className="mt-2 grid grid-cols-2 gap-2">
              <Button disabled={busy} onClick={() => onCapture(h)}>
                {t('capture')}
              </Button>
              <Button variant="secondary" disabled={busy} onClick={() => onVoid(h)}>
                {t('void')}
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-600">{t('captureHint')}</p>
    </section>
  );
}
