'use client';

import { useLocale, useTranslations } from 'next-intl';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { cancelCard, disableCard, enableCard } from '@/server/actions/cards';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';
import { useErrorText } from '@/components/forms/use-error-text';
import { DISABLE_REASON_MAX } from '@/lib/actions/cards.validation';

export interface CardStatusActionsProps {
  cardNumber: string;
  active: boolean;
  /** The provider disabled it: only the provider can enable it, so no Enable button is offered. */
  disabledByProvider: boolean;
  balance: number;
  currency: string;
  canChangeStatus: boolean;
  canCancel: boolean;
}

/**
 * Disable (with an optional note of why) and enable for support and up; cancel behind
 * a confirmation that says where the money goes. One dialog is mounted at a time.
 */
export function CardStatusActions({ cardNumber, active, disabledByProvider, balance, currency, canChangeStatus, canCancel }: CardStatusActionsProps) {
  const t = useTranslations('CardActions');
  const locale = useLocale() === 'am' ? 'am' : 'en';
  const errorText = useErrorText();
  const router = useRouter();
  const [pending, start] = useTransition();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [dialog, setDialog] = useState<'disable' | 'cancel' | null>(null);
  const [reason, setReason] = useState('');
  const lastFour = cardNumber.slice(-4);

  const disable = () =>
    start(async () => {
      const result = await disableCard({ card_number: cardNumber, reason: reason.trim() || undefined });
      setDialog(null);
      setReason('');
      setNotice(result.ok ? { tone: 'success', text: t('disabled') } : { tone: 'error', text: errorText(result) });
      router.refresh();
    });

  const enable = () =>
    start(async () => {
      const result = await enableCard({ card_number: cardNumber });
      setNotice(result.ok ? { tone: 'success', text: t('enabled') } : { tone: 'error', text: errorText(result) });
      router.refresh();
    });

  const cancel = () =>
    start(async () => {
      const result = await cancelCard({ card_number: cardNumber });
      if (result.ok) {
        router.push(`/cards?cancelled=${lastFour}&moved=${result.data.movedToBusiness}&currency=${currency}`);
      } else {
        setDialog(null);
        setNotice({ tone: 'error', text: errorText(result) });
        router.refresh();
      }
    });

  const showToggle = canChangeStatus && (active || !disabledByProvider);

  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {showToggle && (
          <Button variant="secondary" className="sm:w-auto" onClick={active ? () => setDialog('disable') : enable} disabled={pending}>
            {active ? t('disableOpen') : t('enable')}
          </Button>
        )}
        {canCancel && (
          <Button variant="danger" className="sm:w-auto" onClick={() => setDialog('cancel')} disabled={pending}>
            {t('cancelOpen')}
          </Button>
        )}
      </div>
      {notice && (
        <Notice tone={notice.tone} testId="card-action-notice">
          {notice.text}
        </Notice>
      )}
      {dialog === 'disable' && (
        <ConfirmDialog
          open
          title={t('disableTitle', { lastFour })}
          confirmLabel={t('disable')}
          cancelLabel={t('keepActive')}
          pending={pending}
          onConfirm={disable}
          onClose={() => setDialog(null)}
        >
          <p>{t('disableText')}</p>
          <label htmlFor="disable-reason" className="mt-3 block font-medium text-slate-900">
            {t('reason')}
          </label>
          <textarea
            id="disable-reason"
            value={reason}
            maxLength={DISABLE_REASON_MAX}
            rows={2}
            aria-describedby="disable-reason-hint"
            onChange={(e) => setReason(e.target.value)}
            className="mt-1 w-full rounded-lg border border-slate-300 px-3 py-2 text-slate-900 focus-visible:outline-3 focus-visible:outline-emerald-700"
          />
          <p id="disable-reason-hint" className="mt-1 text-xs text-slate-600">
            {t('reasonHint', { max: DISABLE_REASON_MAX })}
          </p>
        </ConfirmDialog>
      )}
      {dialog === 'cancel' && canCancel && (
        <ConfirmDialog
          open
          title={t('cancelTitle', { lastFour })}
          confirmLabel={t('cancelConfirm')}
          cancelLabel={t('keepCard')}
          pending={pending}
          onConfirm={cancel}
          onClose={() => setDialog(null)}
        >
          <p>{t('cancelText')}</p>
          <p className="mt-2 font-medium text-slate-900" data-testid="cancel-balance-destination">
            {balance > 0 ? t('cancelMoves', { amount: formatMoney(balance, currency, locale), currency }) : t('cancelNothing', { currency })}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
