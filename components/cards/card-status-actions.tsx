'use client';

import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { cancelCard, disableCard, enableCard } from '@/server/actions/cards';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatMoney } from '@/components/ui/money';
import { Notice } from '@/components/ui/notice';

export interface CardStatusActionsProps {
  cardNumber: string;
  active: boolean;
  balance: number;
  currency: string;
  canChangeStatus: boolean;
  canCancel: boolean;
}

/** Disable / enable for support and up; cancel behind a confirmation that says where the money goes. */
export function CardStatusActions({ cardNumber, active, balance, currency, canChangeStatus, canCancel }: CardStatusActionsProps) {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const toggle = () =>
    start(async () => {
      const result = await (active ? disableCard : enableCard)({ card_number: cardNumber });
      setNotice(result.ok ? { tone: 'success', text: active ? 'Card disabled.' : 'Card enabled.' } : { tone: 'error', text: result.message });
      router.refresh();
    });

  const cancel = () =>
    start(async () => {
      const result = await cancelCard({ card_number: cardNumber });
      if (result.ok) {
        router.push(`/cards?cancelled=${cardNumber.slice(-4)}&moved=${result.data.movedToBusiness}&currency=${currency}`);
      } else {
        setConfirming(false);
        setNotice({ tone: 'error', text: result.message });
        router.refresh();
      }
    });

  return (
    <div className="space-y-3">
      <div className="flex flex-col gap-2 sm:flex-row">
        {canChangeStatus && (
          <Button variant="secondary" className="sm:w-auto" onClick={toggle} disabled={pending}>
            {active ? 'Disable card' : 'Enable card'}
          </Button>
        )}
        {canCancel && (
          <Button variant="danger" className="sm:w-auto" onClick={() => setConfirming(true)} disabled={pending}>
            Cancel card…
          </Button>
        )}
      </div>
      {notice && (
        <Notice tone={notice.tone} testId="card-action-notice">
          {notice.text}
        </Notice>
      )}
      {canCancel && (
        <ConfirmDialog
          open={confirming}
          title={`Cancel card ending ${cardNumber.slice(-4)}?`}
          confirmLabel="Cancel card for good"
          cancelLabel="Keep card"
          pending={pending}
          onConfirm={cancel}
          onClose={() => setConfirming(false)}
        >
          <p>A cancelled card can never be used or enabled again.</p>
          <p className="mt-2 font-medium text-slate-900" data-testid="cancel-balance-destination">
            {balance > 0
              ? `Its remaining balance of ${formatMoney(balance, currency)} moves to your business’s ${currency} account.`
              : `It holds no money, so nothing moves to your business’s ${currency} account.`}
          </p>
        </ConfirmDialog>
      )}
    </div>
  );
}
