import { json } from '@/lib/api/api-route';
import { getDb } from '@/lib/db/client';
import { requestPublicVerify } from '@/lib/payments/verify-live-payment';
import { providerFor } from '@/lib/providers/provider-registry';

/** Chapa's callback_url after a checkout: anyone can call it, so it only brings the reference's scheduled verify forward, whatever its query says. */
export async function GET(req: Request): Promise<Response> {
  const query = new URL(req.url).searchParams;
  const reference = (query.get('trx_ref') ?? query.get('tx_ref') ?? '').trim();
  if (!providerFor('live')) return json(404, { status: 'error', message: 'Not found', error: 'Live payments are not configured.' });
  if (!/^pay_[A-Za-z0-9]{1,64}$/.test(reference))
    return json(400, { status: 'error', message: 'Validation error', error: { trx_ref: 'trx_ref must be a payment link reference.' } });
  await requestPublicVerify(getDb(), reference);
  return json(200, { status: 'success', message: 'Callback received', data: null });
}
