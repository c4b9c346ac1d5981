import { UploadJobPage, uploadMetadata } from '@/components/uploads/upload-pages';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { requirePage } from '@/server/session';

export const generateMetadata = () => uploadMetadata('cards', 'job');

export default async function CardUploadJobPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage(UPLOAD_PERMISSIONS.cards);
  return <UploadJobPage kind="cards" reference={(await params).reference} session={session} />;
}
