import { errorResponse } from '@/lib/api/api-route';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { requestIdOf } from '@/lib/observability/request-context';
import { isUploadKind } from '@/lib/uploads/upload-kinds';
import { UPLOAD_PERMISSIONS } from '@/lib/auth/permissions';
import { getUploadJob } from '@/lib/uploads/upload-view';
import { requireAction } from '@/server/session';

export const dynamic = 'force-dynamic';

/** An upload's status, counts and shown rows, for the job page's polling. */
export async function GET(req: Request, { params }: { params: Promise<{ kind: string; reference: string }> }) {
  try {
    const { kind, reference } = await params;
    if (!isUploadKind(kind)) throw new ServiceError('not_found', 'Uploads are of cards or payouts.');
    const session = await requireAction(UPLOAD_PERMISSIONS[kind]);
    const data = await getUploadJob(getDb(), { businessId: session.businessId, mode: session.mode, kind, reference });
    return Response.json({ status: 'success', data }, { headers: { 'cache-control': 'private, no-store' } });
  } catch (err) {
    return errorResponse(err, requestIdOf(req.headers));
  }
}
