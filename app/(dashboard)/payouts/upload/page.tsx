import { UploadStartPage } from '@/components/uploads/upload-pages';
import { UPLOAD_KINDS } from '@/lib/uploads/upload-kinds';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Upload payouts · Gift cards' };

export default async function PayoutUploadPage() {
  const session = await requirePage(UPLOAD_KINDS.payouts.permission);
  return <UploadStartPage kind="payouts" session={session} />;
}
