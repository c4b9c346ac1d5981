import { UploadStartPage, uploadMetadata } from '@/components/uploads/upload-pages';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';

export const generateMetadata = () => uploadMetadata('cards', 'start');

export default async function CardUploadPage() {
  const session = await requirePage(UPLOAD_PERMISSIONS.cards);
  return <UploadStartPage kind="cards" session={session} />;
}
