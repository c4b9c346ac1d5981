import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import type { PaymentDetailData } from '@/lib/dashboard/history-details';
import { nextActionMessage } from '@/lib/payments/live-payment';
import { DetailField } from './detail-field';
import { CardLink, type HistoryDetail } from './history-detail-page';
import { bankName, refundedWords } from './payout-labels';

/** A payment's page: what the customer paid and the card got, where it came from, and Chapa's verify in live mode. */
export function paymentDetail({ payment, trail }: PaymentDetailData, appUrl: string): HistoryDetail {
  const money = (n: number) => formatMoney(n, payment.currency);
  const hosted = payment.type === 'hosted';
  const ended = payment.status === 'failed' || payment.status === 'cancelled';
  const pending = payment.status === 'pending';
  return {
    back: { href: '/payments', label: 'All payments' },
    title: hosted ? 'Checkout link payment' : 'Wallet charge',
    reference: payment.linkReference,
    status: payment.status,
    statusTestId: 'payment-status',
    statusNote: refundedWords(payment.amount, payment.refundedAmount),
    failure: ended
      ? {
          heading: payment.status === 'cancelled' ? 'Why it was cancelled' : 'Why it failed',
          reason: payment.failureReason,
          consequence: 'The customer was not charged and the card was not credited.',
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
          <DetailField label={pending ? 'Customer will pay' : 'Customer paid'}>{ended ? 'Nothing' : money(payment.amount + payment.serviceFee)}</DetailField>
          <DetailField label={pending ? 'Card will be credited' : 'Card was credited'} testId="card-credited">
            {ended ? 'Nothing' : money(payment.amount)}
          </DetailField>
        </>
      ),
    },
    panels: [
      {
        title: 'Details',
        fields: (
          <>
            <DetailField label="Card">
              <CardLink number={payment.cardNumber} />
            </DetailField>
            <DetailField label="Order reference">{payment.merchantReference ?? '—'}</DetailField>
            {hosted ? (
              <DetailField label="Checkout link">
                <span className="break-all font-mono text-xs">{`${appUrl}/checkout/${payment.linkReference}`}</span>
              </DetailField>
            ) : (
              <>
                <DetailField label="Wallet">{bankName(payment.paymentMethod)}</DetailField>
                <DetailField label="Phone number">{payment.phoneNumber}</DetailField>
              </>
            )}
            <DetailField label="Processor reference">{payment.providerReference ?? '—'}</DetailField>
            {payment.mode === 'live' && (
              <DetailField label="Chapa's verify" testId="payment-verify">
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
                  'Not checked yet'
                )}
                {pending && payment.nextVerifyAt && (
                  <span className="block text-slate-600">
                    Next check <LocalTime iso={payment.nextVerifyAt.toISOString()} />
                  </span>
                )}
              </DetailField>
            )}
            <DetailField label="Created">
              <LocalTime iso={payment.createdAt.toISOString()} />
            </DetailField>
            <DetailField label="Completed">{payment.completedAt ? <LocalTime iso={payment.completedAt.toISOString()} /> : 'Not yet'}</DetailField>
          </>
        ),
      },
    ],
    trail,
  };
}
