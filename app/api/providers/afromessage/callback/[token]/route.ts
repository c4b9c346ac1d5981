import { json } from '@/lib/api/api-route';
import { readBodyBytes } from '@/lib/api/read-body';
import { MAX_WEBHOOK_BODY_BYTES } from '@/lib/api/receive-webhook-request';
import { getDb } from '@/lib/db/client';
import { recordDeliveryReport } from '@/lib/messages/delivery-report';

type Ctx = { params: Promise<{ token: string }> };

/** A message's delivery report: its status from the query string (GET) or the JSON or form body (POST). The token is the only key. */
async function report(token: string, status: string | null): Promise<Response> {
  if (!status) return json(400, { status: 'error', message: 'Validation error', error: { status: 'status is required.' } });
  const known = await recordDeliveryReport(getDb(), token, { status });
  return known
    ? json(200, { status: 'success', message: 'Report received', data: null })
    : json(404, { status: 'error', message: 'Not found', error: 'No message has this callback.' });
}

export async function GET(req: Request, ctx: Ctx): Promise<Response> {
  return report((await ctx.params).token, new URL(req.url).searchParams.get('status'));
}

export async function POST(req: Request, ctx: Ctx): Promise<Response> {
  const { token } = await ctx.params;
  let status = new URL(req.url).searchParams.get('status');
  try {
    const raw = (await readBodyBytes(req, MAX_WEBHOOK_BODY_BYTES)).toString('utf8');
    const body = raw.trim().startsWith('{') ? (JSON.parse(raw) as Record<string, unknown>) : Object.fromEntries(new URLSearchParams(raw));
    if (typeof body.status === 'string') status = body.status;
  } catch {
    return json(400, { status: 'error', message: 'Validation error', error: { body: 'The body must be JSON or a form.' } });
  }
  return report(token, status);
}
