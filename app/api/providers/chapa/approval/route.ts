import { json } from '@/lib/api/api-route';
import { readBodyBytes } from '@/lib/api/read-body';
import { getDb } from '@/lib/db/client';
import { logger } from '@/lib/observability/logger';
import { inboundOf } from '@/lib/providers/provider-registry';
import { MAX_WEBHOOK_BODY_BYTES } from '@/lib/api/receive-webhook-request';

/** Chapa's server approval of a transfer: 200 approves it, anything else (400 here) makes Chapa revert it. */
export async function POST(req: Request): Promise<Response> {
  let approved = false;
  try {
    const chapa = inboundOf('chapa');
    const body = await readBodyBytes(req, MAX_WEBHOOK_BODY_BYTES);
    approved = (await chapa?.approveTransfer(getDb(), req.headers, body)) ?? false;
  } catch (err) {
    // Too large, unreadable or a database error: not approved. Chapa reverts the transfer and the payout fails and refunds.
    logger.error({ err }, 'chapa approval failed');
  }
  return approved
    ? json(200, { status: 'success', message: 'Transfer approved', data: null })
    : json(400, { status: 'error', message: 'Transfer rejected', data: null });
}
