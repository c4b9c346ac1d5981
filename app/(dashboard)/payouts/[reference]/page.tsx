import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DetailField } from '@/components/history/detail-field';
import { LedgerTrailTable } from '@/components/history/ledger-trail-table';
import { bankName, feePayerText, payoutDestination, payoutTypeLabel } from '@/components/history/payout-labels';
import { Notice } from '@/components/ui/notice';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { pathParam } from '@/server/path-param';
import { requirePage } from '@/server/session';
import { merchantNames } from '@/lib/dashboard/history-lists';
import { ledgerTrail } from '@/lib/dashboard/ledger-trail';
import { payoutInitiator } from '@/lib/dashboard/payout-initiator';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { splitAmounts, takesFeeOffAmount } from '@/lib/payouts/payout-rules';
import { requirePayout } from '@/lib/payouts/payout-view';
import { chapaTransferOf } from '@/lib/rails/chapa/rail-request-view';
import { ChapaTransferPanel } from '@/components/payouts/chapa-transfer-panel';

export const metadata = { title: 'Payout · Gift cards' };

export default async function PayoutPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage('history:read');
  const { reference } = await params;
  const db = getDb();
  const payout = await requirePayout(db, session.businessId, session.mode, pathParam(reference)).catch((err) => {
    if (err instanceof ServiceError) notFound();
    throw err;
  });
  const [trail, names, startedBy, chapa] = await Promise.all([
    ledgerTrail(db, session.businessId, session.mode, payout.reference),
    merchantNames(db, [payout.merchantId]),
    payoutInitiator(db, { businessId: session.businessId, actorType: payout.actorType, actorId: payout.actorId }),
    chapaTransferOf(db, session.businessId, session.mode, payout.reference),
  ]);
  const failed = payout.status === 'failed';
  const pending = payout.status === 'pending';
  const payer = payout.isLedgerTopup ? 'Business balance' : 'Source card';
  // Where a failed payout's money went back: the reversal's credit to a card or to the business balance.
  const returnedTo = trail.find(
    (e) => e.kind.endsWith('_reversal') && e.amount > 0 && (e.account.startsWith('Card ') || e.account === 'Business balance'),
  )?.account;
  const { debit, credit } = splitAmounts(payout.amount, payout.serviceFee, takesFeeOffAmount(payout.payoutType, payout.chargePayer));
  const money = (n: number) => formatMoney(n, payout.currency);
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/payouts" className="text-emerald-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-emerald-700">
          ← All payouts
        </Link>
      </p>
      <PageHeader
        title={payout.isLedgerTopup ? 'Top-up from business balance' : `${payoutTypeLabel(payout)} payout`}
        description={payout.reference}
        actions={
          <span data-testid="payout-status">
            <StatusBadge status={payout.status} />
          </span>
        }
      />
      {failed && (
        <div className="mb-4">
          <Notice tone="error" testId="failure-reason">
            <span className="font-semibold">Why it failed: </span>
            {payout.failureReason ?? 'No reason was recorded.'} Nothing reached the destination, and the money taken for it was returned.
          </Notice>
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title="Money">
          <dl className="grid grid-cols-2 gap-4">
            <DetailField label="Amount" testId="payout-amount">
              {money(payout.amount)}
            </DetailField>
            <DetailField label="Service fee">{money(payout.serviceFee)}</DetailField>
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
          </dl>
        </Panel>
        <Panel title="Where it went">
          <dl className="grid grid-cols-2 gap-4">
            <DetailField label="Source">
              {payout.sourceCardNumber ? (
                <Link href={`/cards/${payout.sourceCardNumber}`} className="font-mono text-emerald-800 underline underline-offset-2">
                  {payout.sourceCardNumber}
                </Link>
              ) : (
                'Business balance'
              )}
            </DetailField>
            <DetailField label="Destination">{payoutDestination(payout, payout.merchantId ? names[payout.merchantId] : null)}</DetailField>
            {payout.payoutType === 'bank' && !payout.isLedgerTopup && (
              <>
                <DetailField label="Bank or wallet">{bankName(payout.bankSlug)}</DetailField>
                <DetailField label="Account number">{payout.accountNumber}</DetailField>
                <DetailField label="Account name">{payout.accountName}</DetailField>
              </>
            )}
            {payout.isLedgerTopup && <DetailField label="Reference name">{payout.accountName}</DetailField>}
            <DetailField label="Mode">{payout.mode === 'live' ? 'Live' : 'Test'}</DetailField>
          </dl>
        </Panel>
        <Panel title="Timeline">
          <dl className="grid grid-cols-2 gap-4">
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
          </dl>
        </Panel>
        {chapa && <ChapaTransferPanel transfer={chapa} />}
      </div>
      <div className="mt-4">
        <Panel title="Ledger transactions">
          <LedgerTrailTable entries={trail} />
        </Panel>
      </div>
    </>
  );
}
