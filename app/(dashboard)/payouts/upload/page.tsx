import { UploadStartPage } from '@/components/uploads/upload-pages';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Upload payouts · Gift cards' };

export default async function PayoutUploadPage() {
  const session = await requirePage(UPLOAD_PERMISSIONS.payouts);
  return <UploadStartPage kind="payouts" session={session} />;
}
