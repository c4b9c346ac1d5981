import { errorResponse, json } from '@/lib/api/api-route';
import { readBodyBytes } from '@/lib/api/read-body';
import { getDb } from '@/lib/db/client';
import { requestIdOf } from '@/lib/observability/request-context';
import { chapaConfig } from '@/lib/rails/chapa/config';
import { receiveChapaWebhook } from '@/lib/rails/chapa/receive-chapa-webhook';
import { MAX_WEBHOOK_BODY_BYTES } from '@/lib/api/receive-webhook-request';

export async function POST(req: Request): Promise<Response> {
  const requestId = requestIdOf(req.headers);
  try {
    const body = await readBodyBytes(req, MAX_WEBHOOK_BODY_BYTES);
    const result = await receiveChapaWebhook(getDb(), chapaConfig(), req.headers, body);
    return json(200, { status: 'success', message: 'Webhook received', data: result });
  } catch (err) {
    return errorResponse(err, requestId);
  }
}
