import { UploadStartPage } from '@/components/uploads/upload-pages';
import { UPLOAD_KINDS } from '@/lib/uploads/upload-kinds';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Upload cards · Gift cards' };

export default async function CardUploadPage() {
  const session = await requirePage(UPLOAD_KINDS.cards.permission);
  return <UploadStartPage kind="cards" session={session} />;
}
