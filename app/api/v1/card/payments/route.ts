import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { paymentContracts } from '@/lib/api/contracts/payments';
import { parsePageQuery } from '@/lib/pagination';
import { createPayment } from '@/lib/payments/create-payment';
import { listPayments } from '@/lib/payments/list-payments';

// 201 like POST /card: the payment is created, pending.
export const POST = apiRoute(paymentContracts.createPayment, async ({ db, auth, actor, body }) => ({
  data: await createPayment(db, { businessId: auth.businessId, mode: auth.mode, actor, input: body }),
}));

export const GET = apiRoute(paymentContracts.listPayments, async ({ db, auth, query }) => ({
  data: await listPayments(db, { businessId: auth.businessId, mode: auth.mode, page: parsePageQuery(query) }),
}));

export const { PUT, PATCH, DELETE } = methodsNotAllowed('GET, POST');
