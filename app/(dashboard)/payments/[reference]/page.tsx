import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { HistoryDetailPage } from '@/components/history/history-detail-page';
import { paymentDetail } from '@/components/history/payment-detail';
import { readSettings } from '@/lib/config';
import { loadPaymentDetail } from '@/lib/dashboard/history-details';
import { getDb } from '@/lib/db/client';
import { pathParam } from '@/server/path-param';
import { requirePage } from '@/server/session';
import { RefundPanel } from '@/components/payments/refund-panel';
import { listPaymentRefunds } from '@/lib/refunds/list-refunds';
import { can } from '@/lib/auth/permissions';

export async function generateMetadata() {
  const t = await getTranslations('Payments');
  return { title: t('detail.metaTitle') };
}

export default async function PaymentPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage('history:read');
  const reference = pathParam((await params).reference);
  const db = getDb();
  const data = await loadPaymentDetail(db, { businessId: session.businessId, mode: session.mode, reference });
  if (!data) notFound();
  const refunds = (
    <RefundPanel
      payment={data.payment}
      refunds={await listPaymentRefunds(db, { ...session, paymentId: data.payment.id })}
      canRefund={can(session.role, 'payments:refund')}
    />
  );
  return <HistoryDetailPage detail={{ ...(await paymentDetail(data, readSettings().appUrl)), actions: refunds }} />;
}
