import { UploadStartPage } from '@/components/uploads/upload-pages';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Upload cards · Gift cards' };

export default async function CardUploadPage() {
  const session = await requirePage(UPLOAD_PERMISSIONS.cards);
  return <UploadStartPage kind="cards" session={session} />;
}
