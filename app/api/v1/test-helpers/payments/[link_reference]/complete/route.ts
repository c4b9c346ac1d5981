import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { paymentContracts } from '@/lib/api/contracts/payments';
import { completeTestPayment } from '@/lib/payments/complete-test-payment';

type Params = { link_reference: string };

export const POST = apiRoute<Params>(paymentContracts.completePayment, async ({ db, auth, actor, params, body }) => ({
  data: await completeTestPayment(db, { businessId: auth.businessId, mode: auth.mode, linkReference: params.link_reference, actor, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
