import { ChapaTransferPanel } from '@/components/payouts/chapa-transfer-panel';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import type { PayoutDetailData } from '@/lib/dashboard/history-details';
import { splitAmounts, takesFeeOffAmount } from '@/lib/payouts/payout-rules';
import { DetailField } from './detail-field';
import { CardLink, type HistoryDetail } from './history-detail-page';
import { bankName, feePayerText, payoutDestination, payoutTypeLabel } from './payout-labels';

/** A payout's page: what left and what arrived (or came back), where it went, when and by whom, and Chapa's side. */
export function payoutDetail({ payout, trail, merchantName, startedBy, chapa }: PayoutDetailData): HistoryDetail {
  const failed = payout.status === 'failed';
  const pending = payout.status === 'pending';
  const payer = payout.isLedgerTopup ? 'Business balance' : 'Source card';
  // Where a failed payout's money went back: the reversal's credit to a card or to the business balance.
  const returnedTo = trail.find(
    (e) => e.kind.endsWith('_reversal') && e.amount > 0 && (e.account.startsWith('Card ') || e.account === 'Business balance'),
  )?.account;
  const { debit, credit } = splitAmounts(payout.amount, payout.serviceFee, takesFeeOffAmount(payout.payoutType, payout.chargePayer));
  const money = (n: number) => formatMoney(n, payout.currency);
  return {
    back: { href: '/payouts', label: 'All payouts' },
    title: payout.isLedgerTopup ? 'Top-up from business balance' : `${payoutTypeLabel(payout)} payout`,
    reference: payout.reference,
    status: payout.status,
    statusTestId: 'payout-status',
    failure: failed
      ? {
          heading: 'Why it failed',
          reason: payout.failureReason,
          consequence: 'Nothing reached the destination, and the money taken for it was returned.',
        }
      : undefined,
    money: {
      amount: payout.amount,
      fee: payout.serviceFee,
      currency: payout.currency,
      amountTestId: 'payout-amount',
      fields: (
        <>
          <DetailField label="Fee paid by">{feePayerText(payout.chargePayer)}</DetailField>
          <DetailField label="Currency">{payout.currency}</DetailField>
          {failed ? (
            <>
              <DetailField label="Returned" testId="returned">
                {money(debit)}
                {returnedTo ? ` to ${returnedTo === 'Business balance' ? 'the business balance' : returnedTo.replace(/^Card /, 'card ')}` : ''}
              </DetailField>
              <DetailField label="Destination received" testId="destination-received">
                Nothing
              </DetailField>
            </>
          ) : (
            <>
              <DetailField label={`${payer} paid`}>{money(debit)}</DetailField>
              <DetailField label={pending ? 'Destination will receive' : 'Destination received'} testId="destination-received">
                {money(credit)}
              </DetailField>
            </>
          )}
        </>
      ),
    },
    panels: [
      {
        title: 'Where it went',
        fields: (
          <>
            <DetailField label="Source">{payout.sourceCardNumber ? <CardLink number={payout.sourceCardNumber} /> : 'Business balance'}</DetailField>
            <DetailField label="Destination">{payoutDestination(payout, merchantName)}</DetailField>
            {payout.payoutType === 'bank' && !payout.isLedgerTopup && (
              <>
                <DetailField label="Bank or wallet">{bankName(payout.bankSlug)}</DetailField>
                <DetailField label="Account number">{payout.accountNumber}</DetailField>
                <DetailField label="Account name">{payout.accountName}</DetailField>
              </>
            )}
            {payout.isLedgerTopup && <DetailField label="Reference name">{payout.accountName}</DetailField>}
            <DetailField label="Mode">{payout.mode === 'live' ? 'Live' : 'Test'}</DetailField>
          </>
        ),
      },
      {
        title: 'Timeline',
        fields: (
          <>
            <DetailField label="Created">
              <LocalTime iso={payout.createdAt.toISOString()} />
            </DetailField>
            <DetailField label="Updated">
              <LocalTime iso={payout.updatedAt.toISOString()} />
            </DetailField>
            <DetailField label="Completed">{payout.completedAt ? <LocalTime iso={payout.completedAt.toISOString()} /> : 'Not yet'}</DetailField>
            <DetailField label="Started by">
              <span className="[overflow-wrap:anywhere]" data-testid="started-by">
                {startedBy}
              </span>
            </DetailField>
          </>
        ),
      },
    ],
    more: chapa && <ChapaTransferPanel transfer={chapa} />,
    trail,
  };
}
