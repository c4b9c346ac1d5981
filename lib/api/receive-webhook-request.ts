import { errorResponse, json } from './api-route';
import { readBodyBytes } from './read-body';
import { getDb } from '../db/client';
import { ServiceError } from '../errors';
import { requestIdOf } from '../observability/request-context';
import { receiveWebhook, receiveWebhookBatch, type BatchedDelivery } from '../webhooks/receive-webhook';
import { BATCH_HEADER, BatchSplitter, MAX_BATCH_BYTES, malformedBatch } from '../webhooks/webhook-batch';

/** Our own events are a few KB; anything far larger is refused before it is read or touches the database. */
export const MAX_WEBHOOK_BODY_BYTES = 64 * 1024;

/** One delivery of a batch, as the splitter cut it: its headers and its body as the exact text that was signed. */
function parseBatchItem(raw: Buffer): BatchedDelivery {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw malformedBatch();
  }
  const { headers, body } = (parsed ?? {}) as { headers?: unknown; body?: unknown };
  if (typeof body !== 'string' || typeof headers !== 'object' || headers === null) throw malformedBatch();
  const h = Object.fromEntries(Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string'));
  const bytes = Buffer.from(body, 'utf8');
  if (bytes.length > MAX_WEBHOOK_BODY_BYTES) throw malformedBatch();
  return { headers: h, body: bytes };
}

/** A batch's deliveries as its bytes arrive; stops reading the body when the reader stops asking (a refused delivery). */
async function* batchItems(req: Request): AsyncGenerator<BatchedDelivery> {
  if (Number(req.headers.get('content-length') ?? 0) > MAX_BATCH_BYTES) throw tooLarge();
  if (!req.body) throw malformedBatch();
  const reader = req.body.getReader();
  const splitter = new BatchSplitter();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BATCH_BYTES) throw tooLarge();
      for (const raw of splitter.push(value)) yield parseBatchItem(raw);
    }
    splitter.end();
  } finally {
    await reader.cancel().catch(() => {});
  }
}

const tooLarge = () => new ServiceError('payload_too_large', 'The request body is larger than 2 MB.');

/** The HTTP side of our receiving endpoint: raw body in, 200 fast, 400/401 for anything not ours. */
export async function receiveWebhookRequest(req: Request, params: Promise<{ endpoint: string }>): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  try {
    const endpointPublicId = (await params).endpoint;
    if (req.headers.get(BATCH_HEADER) !== null) {
      // A batch answers 200 with one result per delivery: each as it would have been answered alone.
      const results = await receiveWebhookBatch(getDb(), { endpointPublicId, items: batchItems(req) });
      return json(200, { status: 'success', message: 'Webhook batch received', data: { results } });
    }
    const body = await readBodyBytes(req, MAX_WEBHOOK_BODY_BYTES);
    const result = await receiveWebhook(getDb(), { endpointPublicId, headers: req.headers, body });
    return json(200, { status: 'success', message: result.duplicate ? 'Webhook already received' : 'Webhook received', data: { id: result.webhookId } });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
