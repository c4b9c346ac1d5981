import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { paymentContracts } from '@/lib/api/contracts/payments';
import { refundPayment } from '@/lib/refunds/refund-payment';
import { refundRequestSchema } from '@/lib/refunds/refund-request';
import { parseInput } from '@/lib/validation';

type Params = { reference: string };

export const POST = apiRoute<Params>(paymentContracts.refundPayment, async ({ db, auth, actor, params, body }) => ({
  data: await refundPayment(db, { businessId: auth.businessId, mode: auth.mode, actor, reference: params.reference, ...parseInput(refundRequestSchema, body) }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
