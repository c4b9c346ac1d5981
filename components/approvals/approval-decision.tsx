'use client';

import { useRouter } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useState } from 'react';
import { approveApproval, rejectApproval, withdrawApproval } from '@/server/actions/approvals';
import { Button } from '@/components/ui/button';
import { useErrorText } from '@/components/forms/use-error-text';
import { Notice } from '@/components/ui/notice';
import { NOTE_MAX } from '@/lib/actions/approval.validation';

type Choice = 'approve' | 'reject' | 'withdraw';

const ACTIONS = { approve: approveApproval, reject: rejectApproval, withdraw: withdrawApproval };

/**
 * The buttons of one waiting request: Approve and Reject for a teammate who
 * may approve and did not ask, Withdraw for the one who asked. The server
 * checks both again; the first decision wins and the others are told so.
 */
export function ApprovalDecision({ reference, canDecide, isMaker }: { reference: string; canDecide: boolean; isMaker: boolean }) {
  const router = useRouter();
  const t = useTranslations('Approvals');
  const errorText = useErrorText();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState<Choice | null>(null);
  const [error, setError] = useState<string | null>(null);

  const decide = async (choice: Choice) => {
    setBusy(choice);
    setError(null);
    const result = await ACTIONS[choice]({ reference, note });
    // Decided (by this click, or by someone else a moment before): the request leaves the waiting list and the page says what became of it.
    if (result.ok || result.code === 'already_decided') return router.push(`/approvals?decided=${encodeURIComponent(reference)}`);
    setBusy(null);
    setError(errorText(result));
  };

  if (!canDecide && !isMaker) return <p className="text-sm text-slate-600">{t('waitingForTeammate')}</p>;
  return (
    <div className="space-y-2">
      {canDecide && (
        <label className="block text-sm">
          <span className="font-medium text-slate-800">{t('noteOptional')}</span>
          <input
            value={note}
            maxLength={NOTE_MAX}
            onChange={(e) => setNote(e.target.value)}
            aria-label={t('noteFor', { reference })}
            className="mt-1 block min-h-11 w-full rounded-lg border border-slate-300 px-3 py-2"
          />
        </label>
      )}
      <div className="flex flex-col gap-2 sm:flex-row">
        {canDecide && (
          <>
            <Button className="sm:w-auto" disabled={busy !== null} onClick={() => void decide('approve')}>
              {busy === 'approve' ? t('approving') : t('approve')}
            </Button>
            <Button variant="danger" className="sm:w-auto" disabled={busy !== null} onClick={() => void decide('reject')}>
              {busy === 'reject' ? t('rejecting') : t('reject')}
            </Button>
          </>
        )}
        {isMaker && (
          <>
            <p className="text-sm text-slate-600 sm:self-center">{t('youAsked')}</p>
            <Button variant="secondary" className="sm:w-auto" disabled={busy !== null} onClick={() => void decide('withdraw')}>
              {busy === 'withdraw' ? t('withdrawing') : t('withdraw')}
            </Button>
          </>
        )}
      </div>
      {error && <Notice tone="error">{error}</Notice>}
    </div>
  );
}
