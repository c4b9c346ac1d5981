import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { HistoryDetailPage } from '@/components/history/history-detail-page';
import { payoutDetail } from '@/components/history/payout-detail';
import { loadPayoutDetail } from '@/lib/dashboard/history-details';
import { getDb } from '@/lib/db/client';
import { pathParam } from '@/server/path-param';
import { requirePage } from '@/server/session';

export async function generateMetadata() {
  const t = await getTranslations('Payouts');
  return { title: t('detail.metaTitle') };
}

export default async function PayoutPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage('history:read');
  const reference = pathParam((await params).reference);
  const data = await loadPayoutDetail(getDb(), { businessId: session.businessId, mode: session.mode, reference });
  if (!data) notFound();
  return <HistoryDetailPage detail={await payoutDetail(data)} />;
}
