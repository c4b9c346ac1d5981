import { getDb } from '@/lib/db/client';
import { uploadResultsFile } from '@/lib/uploads/upload-results';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { csvExport } from '@/server/csv-response';

export const dynamic = 'force-dynamic';

/** The upload's results file: every row with its outcome, reference or error, streamed in batches. */
export async function GET(_req: Request, { params }: { params: Promise<{ reference: string }> }) {
  const { reference } = await params;
  return csvExport(UPLOAD_PERMISSIONS.payouts, (session) =>
    uploadResultsFile(getDb(), { businessId: session.businessId, mode: session.mode, kind: 'payouts', reference, timeZone: session.timeZone }),
  );
}
