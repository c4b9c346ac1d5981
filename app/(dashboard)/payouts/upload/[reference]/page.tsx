import { UploadJobPage } from '@/components/uploads/upload-pages';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Upload of payouts · Gift cards' };

export default async function PayoutUploadJobPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage(UPLOAD_PERMISSIONS.payouts);
  return <UploadJobPage kind="payouts" reference={(await params).reference} session={session} />;
}
