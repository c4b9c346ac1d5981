import { UploadJobPage } from '@/components/uploads/upload-pages';
import { UPLOAD_KINDS } from '@/lib/uploads/upload-kinds';
import { requirePage } from '@/server/session';

export const metadata = { title: 'Upload of cards · Gift cards' };

export default async function CardUploadJobPage({ params }: { params: Promise<{ reference: string }> }) {
  const session = await requirePage(UPLOAD_KINDS.cards.permission);
  return <UploadJobPage kind="cards" reference={(await params).reference} session={session} />;
}
