import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { paymentContracts } from '@/lib/api/contracts/payments';
import { getPaymentStatus } from '@/lib/payments/get-payment-status';

type Params = { link_reference: string };

export const GET = apiRoute<Params>(paymentContracts.getPaymentStatus, async ({ db, auth, params }) => ({
  data: await getPaymentStatus(db, { businessId: auth.businessId, mode: auth.mode, linkReference: params.link_reference }),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
