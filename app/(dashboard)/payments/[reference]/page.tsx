import { notFound } from 'next/navigation';
import { HistoryDetailPage } from '@/components/history/history-detail-page';
import { paymentDetail } from '@/components/history/payment-detail';
import { readSettings } from '@/lib/config';
import { loadPaymentDetail } from '@/lib/dashboard/history-details';
import { getDb } from '@/lib/db/client';
import { pathParam } from '@/server/path-param';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Payment · Gift cards' };

export default async function PaymentPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage('history:read');
  const reference = pathParam((await params).reference);
  const data = await loadPaymentDetail(getDb(), { businessId: session.businessId, mode: session.mode, reference });
  if (!data) notFound();
  return <HistoryDetailPage detail={paymentDetail(data, readSettings().appUrl)} />;
}
