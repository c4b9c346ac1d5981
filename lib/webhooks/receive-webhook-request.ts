import { errorResponse, json } from '../api/api-route';
import { readBodyBytes } from '../api/read-body';
import { getDb } from '../db/client';
import { ServiceError } from '../errors';
import { newRequestId } from '../ids';
import { receiveWebhook, receiveWebhookBatch, type BatchedDelivery } from './receive-webhook';
import { BATCH_HEADER, MAX_BATCH_BYTES, MAX_BATCH_ITEMS } from './webhook-batch';

/** Our own events are a few KB; anything far larger is refused before it is read or touches the database. */
const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

const malformedBatch = () => new ServiceError('validation_error', { body: 'A webhook batch is {"deliveries":[{"headers":{...},"body":"..."}]}.' });

/** A batch's JSON: each delivery's headers and its body as the exact text that was signed. */
function parseBatch(raw: Buffer): BatchedDelivery[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw malformedBatch();
  }
  const deliveries = (parsed as { deliveries?: unknown })?.deliveries;
  if (!Array.isArray(deliveries) || deliveries.length === 0 || deliveries.length > MAX_BATCH_ITEMS) throw malformedBatch();
  return deliveries.map((d) => {
    const { headers, body } = (d ?? {}) as { headers?: unknown; body?: unknown };
    if (typeof body !== 'string' || typeof headers !== 'object' || headers === null) throw malformedBatch();
    const h = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
    const bytes = Buffer.from(body, 'utf8');
    if (bytes.length > MAX_WEBHOOK_BODY_BYTES) throw malformedBatch();
    return { headers: h, body: bytes };
  });
}

/** The HTTP side of our receiving endpoint: raw body in, 200 fast, 400/401 for anything not ours. */
export async function receiveWebhookRequest(req: Request, params: Promise<{ endpoint: string }>): Promise<Response> {
  const requestId = newRequestId();
  try {
    const endpointPublicId = (await params).endpoint;
    if (req.headers.get(BATCH_HEADER) !== null) {
      // A batch answers 200 with one result per delivery: each as it would have been answered alone.
      const items = parseBatch(await readBodyBytes(req, MAX_BATCH_BYTES));
      const results = await receiveWebhookBatch(getDb(), { endpointPublicId, items });
      return json(200, { status: 'success', message: 'Webhook batch received', data: { results } });
    }
    const body = await readBodyBytes(req, MAX_WEBHOOK_BODY_BYTES);
    const result = await receiveWebhook(getDb(), { endpointPublicId, headers: req.headers, body });
    return json(200, { status: 'success', message: result.duplicate ? 'Webhook already received' : 'Webhook received', data: { id: result.webhookId } });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
