import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { paymentContracts } from '@/lib/api/contracts/payments';
import { authorizeLivePayment } from '@/lib/payments/authorize-live-payment';

type Params = { link_reference: string };

export const POST = apiRoute<Params>(paymentContracts.authorizePayment, async ({ db, auth, params, body }) => ({
  data: await authorizeLivePayment(db, { businessId: auth.businessId, mode: auth.mode, linkReference: params.link_reference, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
