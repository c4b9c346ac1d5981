import { UploadStartPage, uploadMetadata } from '@/components/uploads/upload-pages';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';

export const generateMetadata = () => uploadMetadata('payouts', 'start');

export default async function PayoutUploadPage() {
  const session = await requirePage(UPLOAD_PERMISSIONS.payouts);
  return <UploadStartPage kind="payouts" session={session} />;
}
