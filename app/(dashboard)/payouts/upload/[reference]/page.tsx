import { UploadJobPage, uploadMetadata } from '@/components/uploads/upload-pages';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';

export const generateMetadata = () => uploadMetadata('payouts', 'job');

export default async function PayoutUploadJobPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage(UPLOAD_PERMISSIONS.payouts);
  return <UploadJobPage kind="payouts" reference={(await params).reference} session={session} />;
}
