'use client';

import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { LocalTime } from '@/components/ui/local-time';
import type { TillHold } from '@/lib/holds/till-hold-view';
import type { Redemption } from '@/lib/redemptions/redeem-card';

export type Step = 'redeem' | 'hold' | 'capture' | 'void';

/** What the receipt shows of a finished step. */
export interface Receipt {
  step: Step;
  reference: string;
  cardNumber: string;
  currency: string;
  amount: number;
  balance: number | null;
  at: string;
}

/** The receipt of a redemption or a captured hold, as the step or its confirmed code answered it. */
export const receiptOf = (d: Redemption | TillHold): Receipt =>
  'hold_reference' in d
    ? {
        step: 'capture',
        reference: d.hold_reference,
        cardNumber: d.card_number,
        currency: d.currency,
        amount: d.captured_amount,
        balance: null,
        at: d.ended_at ?? d.created_at,
      }
    : {
        step: 'redeem',
        reference: d.reference,
        cardNumber: d.card_number,
        currency: d.currency,
        amount: d.amount,
        balance: d.available_amount,
        at: d.created_at,
      };

export interface TillReceiptProps {
  receipt: Receipt;
  businessName: string;
  money: (minor: number, currency: string) => string;
  onNext: () => void;
}

/** A finished step's receipt, printable on 58 or 80 mm paper (its own print CSS), and the way to the next customer. */
export function TillReceipt({ receipt, businessName, money, onNext }: TillReceiptProps) {
  const t = useTranslations('Till');
  const [paper, setPaper] = useState<58 | 80>(80);
  return (
    <section aria-labelledby="receipt-title" className="mx-auto max-w-md space-y-4">
      <style>{`@media print {
@page { size: ${paper}mm auto; margin: 0; }
body * { visibility: hidden; }
#till-receipt, #till-receipt * { visibility: visible; }
#till-receipt { position: absolute; left: 0; top: 0; width: ${paper}mm; padding: 2mm; border: 0; box-shadow: none; font-size: ${paper === 58 ? 9 : 11}pt; }
}`}</style>
      <div id="till-receipt" data-testid="receipt" className="rounded-lg border border-slate-300 bg-white p-4 font-mono text-sm text-slate-900">
        <h2 id="receipt-title" className="text-center font-bold">
          {businessName}
        </h2>
        <p className="text-center">{t(`receipt.${receipt.step}`)}</p>
        <dl className="mt-3 space-y-1">
          <div className="flex justify-between gap-2">
            <dt>{t('receipt.amount')}</dt>
            <dd className="text-right text-lg font-bold tabular-nums" data-testid="receipt-amount">
              {money(receipt.amount, receipt.currency)}
            </dd>
          </div>
          <div className="flex justify-between gap-2">
            <dt>{t('receipt.card')}</dt>
            <dd className="tabular-nums">•••• {receipt.cardNumber.slice(-4)}</dd>
          </div>
          {receipt.balance !== null && (
            <div className="flex justify-between gap-2">
              <dt>{t('receipt.balance')}</dt>
              <dd className="tabular-nums">{money(receipt.balance, receipt.currency)}</dd>
            </div>
          )}
          <div className="flex justify-between gap-2">
            <dt>{t('receipt.reference')}</dt>
            <dd className="break-all text-right" data-testid="receipt-reference">
              {receipt.reference}
            </dd>
          </div>
          <div className="flex justify-between gap-2">
            <dt>{t('receipt.time')}</dt>
            <dd className="text-right">
              <LocalTime iso={receipt.at} />
            </dd>
          </div>
        </dl>
      </div>
      <fieldset className="flex gap-4 text-sm">
        <legend className="sr-only">{t('paper')}</legend>
        {([58, 80] as const).map((mm) => (
          <label key={mm} className="flex items-center gap-2">
            <input type="radio" name="paper" checked={paper === mm} onChange={() => setPaper(mm)} />
            {t('paperWidth', { mm })}
          </label>
        ))}
      </fieldset>
      <div className="grid grid-cols-2 gap-3">
        <Button variant="secondary" onClick={() => window.print()}>
          {t('print')}
        </Button>
        <Button id="till-next" onClick={onNext}>
          {t('next')}
        </Button>
      </div>
    </section>
  );
}
