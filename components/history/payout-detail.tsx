import { getLocale, getTranslations } from 'next-intl/server';
import { ProviderTransferPanel } from '@/components/payouts/provider-transfer-panel';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import type { PayoutDetailData } from '@/lib/dashboard/history-details';
import { isLocale } from '@/lib/i18n/locale';
import { splitAmounts, takesFeeOffAmount } from '@/lib/payouts/payout-rules';
import { DetailField } from './detail-field';
import { CardLink, type HistoryDetail } from './history-detail-page';
import { bankName, payoutDestination } from './payout-labels';

/** A payout's page: what left and what arrived (or came back), where it went, when and by whom, and the provider's side. */
export async function payoutDetail({ payout, trail, merchantName, startedBy, provider }: PayoutDetailData): Promise<HistoryDetail> {
  const t = await getTranslations('Payouts');
  const asked = await getLocale();
  const failed = payout.status === 'failed';
  const pending = payout.status === 'pending';
  // Where a failed payout's money went back: the reversal's credit to a card or to the business balance.
  const returnedTo = trail.find(
    (e) => e.kind.endsWith('_reversal') && e.amount > 0 && (e.account.startsWith('Card ') || e.account === 'Business balance'),
  )?.account;
  const { debit, credit } = splitAmounts(payout.amount, payout.serviceFee, takesFeeOffAmount(payout.payoutType, payout.chargePayer));
  const money = (n: number) => formatMoney(n, payout.currency, isLocale(asked) ? asked : 'en');
  const type = payout.isLedgerTopup ? 'topup' : payout.payoutType;
  return {
    back: { href: '/payouts', label: t('detail.all') },
    title: payout.isLedgerTopup ? t('types.topup') : t('detail.title', { type: t.has(`types.${type}`) ? t(`types.${type}`) : t('types.other') }),
    reference: payout.reference,
    status: payout.status,
    statusLabel: t.has(`statuses.${payout.status}`) ? t(`statuses.${payout.status}`) : payout.status,
    statusTestId: 'payout-status',
    failure: failed
      ? {
          heading: t('detail.whyFailed'),
          reason: payout.failureReason,
          consequence: t('detail.failedConsequence'),
        }
      : undefined,
    money: {
      amount: payout.amount,
      fee: payout.serviceFee,
      currency: payout.currency,
      amountTestId: 'payout-amount',
      fields: (
        <>
          <DetailField label={t('detail.feePaidBy')}>
            {t.has(`feePayers.${payout.chargePayer}`) ? t(`feePayers.${payout.chargePayer}`) : t('feePayers.unknown')}
          </DetailField>
          <DetailField label={t('detail.currency')}>{payout.currency}</DetailField>
          {failed ? (
            <>
              <DetailField label={t('detail.returned')} testId="returned">
                {returnedTo === undefined
                  ? money(debit)
                  : returnedTo === 'Business balance'
                    ? t('detail.returnedToBalance', { amount: money(debit) })
                    : t('detail.returnedToCard', { amount: money(debit), card: returnedTo.replace(/^Card /, '') })}
              </DetailField>
              <DetailField label={t('detail.destinationReceived')} testId="destination-received">
                {t('detail.nothing')}
              </DetailField>
            </>
          ) : (
            <>
              <DetailField label={payout.isLedgerTopup ? t('detail.balancePaid') : t('detail.cardPaid')}>{money(debit)}</DetailField>
              <DetailField label={pending ? t('detail.destinationWillReceive') : t('detail.destinationReceived')} testId="destination-received">
                {money(credit)}
              </DetailField>
            </>
          )}
        </>
      ),
    },
    panels: [
      {
        title: t('detail.whereItWent'),
        fields: (
          <>
            <DetailField label={t('detail.source')}>
              {payout.sourceCardNumber ? <CardLink number={payout.sourceCardNumber} /> : t('list.businessBalance')}
            </DetailField>
            <DetailField label={t('detail.destination')}>
              {payout.isLedgerTopup || payout.payoutType === 'card_to_card'
                ? t('detail.cardNumber', { number: payout.destinationCardNumber ?? '' })
                : payout.payoutType === 'b2b'
                  ? (merchantName ?? t('detail.anotherBusiness'))
                  : payoutDestination(payout, merchantName)}
            </DetailField>
            {payout.payoutType === 'bank' && !payout.isLedgerTopup && (
              <>
                <DetailField label={t('types.bank')}>{bankName(payout.bankSlug)}</DetailField>
                <DetailField label={t('detail.accountNumber')}>{payout.accountNumber}</DetailField>
                <DetailField label={t('detail.accountName')}>{payout.accountName}</DetailField>
              </>
            )}
            {payout.isLedgerTopup && <DetailField label={t('detail.referenceName')}>{payout.accountName}</DetailField>}
            <DetailField label={t('detail.mode')}>{payout.mode === 'live' ? t('detail.live') : t('detail.test')}</DetailField>
          </>
        ),
      },
      {
        title: t('detail.timeline'),
        fields: (
          <>
            <DetailField label={t('list.created')}>
              <LocalTime iso={payout.createdAt.toISOString()} />
            </DetailField>
            <DetailField label={t('detail.updated')}>
              <LocalTime iso={payout.updatedAt.toISOString()} />
            </DetailField>
            <DetailField label={t('detail.completed')}>
              {payout.completedAt ? <LocalTime iso={payout.completedAt.toISOString()} /> : t('detail.notYet')}
            </DetailField>
            <DetailField label={t('detail.startedBy')}>
              <span className="[overflow-wrap:anywhere]" data-testid="started-by">
                {startedBy.kind === 'user'
                  ? startedBy.email
                  : startedBy.kind === 'api_key'
                    ? startedBy.name
                      ? t('detail.startedByNamedKey', { name: startedBy.name, key: startedBy.shown })
                      : t('detail.startedByKey', { key: startedBy.shown })
                    : t(`detail.startedByOther.${startedBy.kind}`)}
              </span>
            </DetailField>
          </>
        ),
      },
    ],
    more: provider && <ProviderTransferPanel provider={provider.label} transfer={provider.transfer} />,
    trail,
  };
}
