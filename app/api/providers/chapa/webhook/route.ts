import { errorResponse, json } from '@/lib/api/api-route';
import { readBodyBytes } from '@/lib/api/read-body';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { requestIdOf } from '@/lib/observability/request-context';
import { LIVE_NOT_CONFIGURED } from '@/lib/providers/provider-port';
import { inboundOf } from '@/lib/providers/provider-registry';
import { MAX_WEBHOOK_BODY_BYTES } from '@/lib/api/receive-webhook-request';

/** Chapa's webhook: the provider registered as `chapa` verifies and handles it. */
export async function POST(req: Request): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  try {
    const chapa = inboundOf('chapa');
    if (!chapa) throw new ServiceError('not_found', LIVE_NOT_CONFIGURED);
    const body = await readBodyBytes(req, MAX_WEBHOOK_BODY_BYTES);
    const result = await chapa.webhook(getDb(), req.headers, body);
    return json(200, { status: 'success', message: 'Webhook received', data: result });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
