import { useTranslations } from 'next-intl';
import { DetailField } from '@/components/history/detail-field';
import { LocalTime } from '@/components/ui/local-time';
import { Panel } from '@/components/ui/page-header';
import type { ProviderTransfer } from '@/lib/providers/provider-records';

/** The provider's side of a payout: its reference, what its verify last said, and the retries. */
export function ProviderTransferPanel({ provider, transfer }: { provider: string; transfer: ProviderTransfer }) {
  const t = useTranslations('ProviderPanel');
  return (
    <Panel title={provider}>
      <dl className="grid grid-cols-2 gap-4">
        <DetailField label={t('transferReference')}>
          <span className="font-mono">{transfer.reference}</span>
        </DetailField>
        <DetailField label={t('providerReference', { provider })} testId="provider-reference">
          <span className="font-mono">{transfer.providerReference ?? t('notKnownYet')}</span>
        </DetailField>
        <DetailField label={t('request')} testId="provider-state">
          {t(`states.${transfer.state}`, { provider })}
        </DetailField>
        <DetailField label={t('providerSays', { provider })} testId="provider-verify">
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
            t('notChecked')
          )}
        </DetailField>
        {transfer.state !== 'done' && transfer.nextAttemptAt && (
          <DetailField label={t('nextCheck')}>
            <LocalTime iso={transfer.nextAttemptAt.toISOString()} />
          </DetailField>
        )}
        {transfer.lastError && (
          <DetailField label={t('lastProblem')} testId="provider-last-error">
            {transfer.lastError}
          </DetailField>
        )}
      </dl>
    </Panel>
  );
}
