import { and, eq } from 'drizzle-orm';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DetailField } from '@/components/history/detail-field';
import { LedgerTrailTable } from '@/components/history/ledger-trail-table';
import { bankName } from '@/components/history/payout-labels';
import { Notice } from '@/components/ui/notice';
import { LocalTime } from '@/components/ui/local-time';
import { formatMoney } from '@/components/ui/money';
import { PageHeader, Panel } from '@/components/ui/page-header';
import { StatusBadge } from '@/components/ui/status-badge';
import { pathParam } from '@/server/path-param';
import { requirePage } from '@/server/session';
import { ledgerTrail } from '@/lib/dashboard/ledger-trail';
import { getDb } from '@/lib/db/client';
import { payments } from '@/lib/db/schema';
import { nextActionMessage } from '@/lib/payments/live-payment';
import { RefundPanel } from '@/components/payments/refund-panel';
import { listPaymentRefunds } from '@/lib/refunds/list-refunds';
import { can } from '@/lib/auth/permissions';
import { readSettings } from '@/lib/config';

export const metadata = { title: 'Payment · Gift cards' };

export default async function PaymentPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage('history:read');
  const reference = pathParam((await params).reference);
  const db = getDb();
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.linkReference, reference), eq(payments.businessId, session.businessId), eq(payments.mode, session.mode)));
  if (!payment) notFound();
  const trail = await ledgerTrail(db, session.businessId, session.mode, payment.linkReference);
  const money = (n: number) => formatMoney(n, payment.currency);
  const hosted = payment.type === 'hosted';
  const ended = payment.status === 'failed' || payment.status === 'cancelled';
  const pending = payment.status === 'pending';
  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/payments" className="text-emerald-800 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-emerald-700">
          ← All payments
        </Link>
      </p>
      <PageHeader
        title={hosted ? 'Checkout link payment' : 'Wallet charge'}
        description={payment.linkReference}
        actions={
          <span data-testid="payment-status">
            <StatusBadge status={payment.status} />
          </span>
        }
      />
      {ended && (
        <div className="mb-4">
          <Notice tone="error" testId="failure-reason">
            <span className="font-semibold">{payment.status === 'cancelled' ? 'Why it was cancelled: ' : 'Why it failed: '}</span>
            {payment.failureReason ?? 'No reason was recorded.'} The customer was not charged and the card was not credited.
          </Notice>
        </div>
      )}
      {pending && payment.providerNextAction && (
        <div className="mb-4">
          <Notice tone="info" testId="next-action">
            <span className="font-semibold">Next: </span>
            <span className="[overflow-wrap:anywhere]">{nextActionMessage(payment.providerNextAction, payment.linkReference)}</span>
          </Notice>
        </div>
      )}
      <div className="grid gap-4 md:grid-cols-2">
        <Panel title="Money">
          <dl className="grid grid-cols-2 gap-4">
            <DetailField label="Amount" testId="payment-amount">
              {money(payment.amount)}
            </DetailField>
            <DetailField label="Service fee">{money(payment.serviceFee)}</DetailField>
            <DetailField label={pending ? 'Customer will pay' : 'Customer paid'}>{ended ? 'Nothing' : money(payment.amount + payment.serviceFee)}</DetailField>
            <DetailField label={pending ? 'Card will be credited' : 'Card was credited'} testId="card-credited">
              {ended ? 'Nothing' : money(payment.amount)}
            </DetailField>
          </dl>
        </Panel>
        <Panel title="Details">
          <dl className="grid grid-cols-2 gap-4">
            <DetailField label="Card">
              <Link href={`/cards/${payment.cardNumber}`} className="font-mono text-emerald-800 underline underline-offset-2">
                {payment.cardNumber}
              </Link>
            </DetailField>
            <DetailField label="Order reference">{payment.merchantReference ?? '—'}</DetailField>
            {hosted ? (
              <DetailField label="Checkout link">
                <span className="break-all font-mono text-xs">{`${readSettings().appUrl}/checkout/${payment.linkReference}`}</span>
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
          </dl>
        </Panel>
      </div>
      <RefundPanel
        payment={payment}
        refunds={await listPaymentRefunds(db, { ...session, paymentId: payment.id })}
        canRefund={can(session.role, 'payments:refund')}
      />
      <div className="mt-4">
        <Panel title="Ledger transactions">
          <LedgerTrailTable entries={trail} />
        </Panel>
      </div>
    </>
  );
}
