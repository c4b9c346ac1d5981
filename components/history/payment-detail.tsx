import { getLocale, getTranslations } from 'next-intl/server';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import type { PaymentDetailData } from '@/lib/dashboard/history-details';
import { isLocale } from '@/lib/i18n/locale';
import { nextActionMessage } from '@/lib/payments/live-payment';
import { DetailField } from './detail-field';
import { CardLink, type HistoryDetail } from './history-detail-page';
import { bankName } from './payout-labels';

/** A payment's page: what the customer paid and the card got, where it came from, and Chapa's verify in live mode. */
export async function paymentDetail({ payment, trail }: PaymentDetailData, appUrl: string): Promise<HistoryDetail> {
  const t = await getTranslations('Payments');
  const asked = await getLocale();
  const money = (n: number) => formatMoney(n, payment.currency, isLocale(asked) ? asked : 'en');
  const hosted = payment.type === 'hosted';
  const ended = payment.status === 'failed' || payment.status === 'cancelled';
  const pending = payment.status === 'pending';
  return {
    back: { href: '/payments', label: t('detail.all') },
    title: hosted ? t('detail.hostedTitle') : t('types.direct-charge'),
    reference: payment.linkReference,
    status: payment.status,
    statusLabel: t.has(`statuses.${payment.status}`) ? t(`statuses.${payment.status}`) : payment.status,
    statusTestId: 'payment-status',
    statusNote: payment.refundedAmount <= 0 ? null : payment.refundedAmount >= payment.amount ? t('refunded') : t('partlyRefunded'),
    failure: ended
      ? {
          heading: payment.status === 'cancelled' ? t('detail.whyCancelled') : t('detail.whyFailed'),
          reason: payment.failureReason,
          consequence: t('detail.notCharged'),
        }
      : undefined,
    next: pending && payment.providerNextAction ? nextActionMessage(payment.providerNextAction, payment.linkReference) : undefined,
    money: {
      amount: payment.amount,
      fee: payment.serviceFee,
      currency: payment.currency,
      amountTestId: 'payment-amount',
      fields: (
        <>
          <DetailField label={pending ? t('detail.customerWillPay') : t('detail.customerPaid')}>
            {ended ? t('detail.nothing') : money(payment.amount + payment.serviceFee)}
          </DetailField>
          <DetailField label={pending ? t('detail.cardWillBeCredited') : t('detail.cardWasCredited')} testId="card-credited">
            {ended ? t('detail.nothing') : money(payment.amount)}
          </DetailField>
        </>
      ),
    },
    panels: [
      {
        title: t('detail.details'),
        fields: (
          <>
            <DetailField label={t('list.card')}>{payment.cardNumber ? <CardLink number={payment.cardNumber} /> : '—'}</DetailField>
            <DetailField label={t('detail.orderReference')}>{payment.merchantReference ?? '—'}</DetailField>
            {hosted ? (
              <DetailField label={t('types.hosted')}>
                <span className="break-all font-mono text-xs">{`${appUrl}/checkout/${payment.linkReference}`}</span>
              </DetailField>
            ) : (
              <>
                <DetailField label={t('detail.wallet')}>{bankName(payment.paymentMethod)}</DetailField>
                <DetailField label={t('detail.phone')}>{payment.phoneNumber}</DetailField>
              </>
            )}
            <DetailField label={t('detail.processorReference')}>{payment.providerReference ?? '—'}</DetailField>
            {payment.mode === 'live' && (
              <DetailField label={t('detail.chapaVerify')} testId="payment-verify">
                {payment.verifyState ? (
                  <>
                    {payment.verifyState}
                    {payment.verifyNote ? `: ${payment.verifyNote}` : ''}
                    {payment.verifiedAt && (
                      <span className="text-slate-600">
                        {' '}
                        (<LocalTime iso={payment.verifiedAt.toISOString()} />)
                      </span>
                    )}
                  </>
                ) : (
                  t('detail.notChecked')
                )}
                {pending && payment.nextVerifyAt && (
                  <span className="block text-slate-600">
                    {t('detail.nextCheck')} <LocalTime iso={payment.nextVerifyAt.toISOString()} />
                  </span>
                )}
              </DetailField>
            )}
            <DetailField label={t('detail.created')}>
              <LocalTime iso={payment.createdAt.toISOString()} />
            </DetailField>
            <DetailField label={t('detail.completed')}>
              {payment.completedAt ? <LocalTime iso={payment.completedAt.toISOString()} /> : t('detail.notYet')}
            </DetailField>
          </>
        ),
      },
    ],
    trail,
  };
}
