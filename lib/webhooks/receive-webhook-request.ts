import { errorResponse, json, MAX_BODY_BYTES } from '../api/api-route';
import { getDb } from '../db/client';
import { ServiceError } from '../errors';
import { randomBase62 } from '../ids';
import { receiveWebhook } from './receive-webhook';

/** The HTTP side of our receiving endpoint: raw body in, 200 fast, 400/401 for anything not ours. */
export async function receiveWebhookRequest(req: Request, params: Promise<{ endpoint: string }>): Promise<Response> {
  const requestId = `req_${randomBase62(20)}`;
  try {
    if (Number(req.headers.get('content-length') ?? 0) > MAX_BODY_BYTES) throw new ServiceError('payload_too_large', 'The request body is larger than 1 MB.');
    const body = Buffer.from(await req.arrayBuffer());
    if (body.length > MAX_BODY_BYTES) throw new ServiceError('payload_too_large', 'The request body is larger than 1 MB.');
    const result = await receiveWebhook(getDb(), { endpointPublicId: (await params).endpoint, headers: req.headers, body });
    return json(200, { status: 'success', message: result.duplicate ? 'Webhook already received' : 'Webhook received', data: { id: result.webhookId } });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
