import { errorResponse } from '@/lib/api/api-route';
import { readBodyBytes } from '@/lib/api/read-body';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { requestIdOf } from '@/lib/observability/request-context';
import { MAX_UPLOAD_BYTES } from '@/lib/uploads/parse-csv';
import { previewUpload } from '@/lib/uploads/preview-upload';
import { isUploadKind } from '@/lib/uploads/upload-kinds';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { requireAction } from '@/server/session';

export const dynamic = 'force-dynamic';

/**
 * POST the CSV file itself (content-type text/csv, which a cross-site form cannot
 * send without the browser asking first), name in x-file-name: answers the
 * previewed job's reference. Past MAX_UPLOAD_BYTES nothing more is read.
 */
export async function POST(req: Request, { params }: { params: Promise<{ kind: string }> }) {
  try {
    const { kind } = await params;
    if (!isUploadKind(kind)) throw new ServiceError('not_found', 'Uploads are of cards or payouts.');
    const session = await requireAction(UPLOAD_PERMISSIONS[kind]);
    if (!req.headers.get('content-type')?.startsWith('text/csv')) throw new ServiceError('validation_error', { file: 'Send the file as text/csv.' });
    const bytes = await readBodyBytes(req, MAX_UPLOAD_BYTES);
    const text = utf8(bytes);
    const fileName = fileNameOf(req.headers.get('x-file-name'));
    const data = await previewUpload(getDb(), { businessId: session.businessId, mode: session.mode, userId: session.userId, kind, fileName, text });
    return Response.json({ status: 'success', data }, { status: 201 });
  } catch (err) {
    return errorResponse(err, requestIdOf(req.headers));
  }
}

function utf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ServiceError('validation_error', { file: 'The file is not UTF-8 text: save it as "CSV UTF-8".' });
  }
}

/** The browser sends the name URI-encoded (headers are Latin-1); a malformed one is only a name. */
function fileNameOf(header: string | null): string {
  try {
    return decodeURIComponent(header ?? 'upload.csv');
  } catch {
    return 'upload.csv';
  }
}
