import { DetailField } from '@/components/history/detail-field';
import { LocalTime } from '@/components/ui/local-time';
import { Panel } from '@/components/ui/page-header';
import type { ChapaTransferView } from '@/lib/rails/chapa/rail-request-view';

const STATE_TEXT: Record<ChapaTransferView['state'], string> = {
  queued: 'Recorded, not yet sent to Chapa',
  sending: 'Sent; waiting to hear that Chapa has it',
  sent: 'Chapa has the transfer',
  done: 'Settled by Chapa',
  review: 'Unsettled for over a day: needs a person to check it with Chapa (it is never refunded automatically)',
  dead: 'No longer retried after every try failed: needs a person to check it with Chapa (it is never refunded automatically)',
};

/** The provider's side of a live payout: Chapa's reference, what verify last said, and the retries. */
export function ChapaTransferPanel({ transfer }: { transfer: ChapaTransferView }) {
  return (
    <Panel title="Chapa">
      <dl className="grid grid-cols-2 gap-4">
        <DetailField label="Transfer reference">
          <span className="font-mono">{transfer.reference}</span>
        </DetailField>
        <DetailField label="Chapa reference" testId="chapa-reference">
          <span className="font-mono">{transfer.chapaReference ?? 'Not known yet'}</span>
        </DetailField>
        <DetailField label="Request" testId="chapa-state">
          {STATE_TEXT[transfer.state]}
        </DetailField>
        <DetailField label="Chapa says" testId="chapa-verify">
          {transfer.verifyStatus ? (
            <>
              {transfer.verifyStatus}
              {transfer.verifiedAt && (
                <span className="text-slate-600">
                  {' '}
                  (<LocalTime iso={transfer.verifiedAt.toISOString()} />)
                </span>
              )}
            </>
          ) : (
            'Not checked yet'
          )}
        </DetailField>
        {transfer.state !== 'done' && transfer.nextAttemptAt && (
          <DetailField label="Next check">
            <LocalTime iso={transfer.nextAttemptAt.toISOString()} />
          </DetailField>
        )}
        {transfer.lastError && (
          <DetailField label="Last problem" testId="chapa-last-error">
            {transfer.lastError}
          </DetailField>
        )}
      </dl>
    </Panel>
  );
}
