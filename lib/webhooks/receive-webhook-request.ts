import { errorResponse, json } from '../api/api-route';
import { readBodyBytes } from '../api/read-body';
import { getDb } from '../db/client';
import { newRequestId } from '../ids';
import { receiveWebhook } from './receive-webhook';

/** Our own events are a few KB; anything far larger is refused before it is read or touches the database. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

/** The HTTP side of our receiving endpoint: raw body in, 200 fast, 400/401 for anything not ours. */
export async function receiveWebhookRequest(req: Request, params: Promise<{ endpoint: string }>): Promise<Response> {
  const requestId = newRequestId();
  try {
    const body = await readBodyBytes(req, MAX_WEBHOOK_BODY_BYTES);
    const result = await receiveWebhook(getDb(), { endpointPublicId: (await params).endpoint, headers: req.headers, body });
    return json(200, { status: 'success', message: result.duplicate ? 'Webhook already received' : 'Webhook received', data: { id: result.webhookId } });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
