import { getDb } from '@/lib/db/client';
import { uploadResultsFile } from '@/lib/uploads/upload-results';
import { UPLOAD_KINDS } from '@/lib/uploads/upload-kinds';
import { csvExport } from '@/server/csv-response';

export const dynamic = 'force-dynamic';

/** The upload's results file: every row with its outcome, reference or error, streamed in batches. */
export async function GET(_req: Request, { params }: { params: Promise<{ reference: string }> }) {
  const { reference } = await params;
  return csvExport(UPLOAD_KINDS.cards.permission, (session) =>
    uploadResultsFile(getDb(), { businessId: session.businessId, mode: session.mode, kind: 'cards', reference, timeZone: session.timeZone }),
  );
}
