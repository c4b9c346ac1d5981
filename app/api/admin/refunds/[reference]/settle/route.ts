import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { settleRefundByHand } from '@/lib/refunds/settle-refund-by-hand';

export const POST = adminRoute<{ reference: string }>(async ({ db, params, actor, body }) => ({
  message: 'Refund settled by the provider',
  data: await settleRefundByHand(db, { reference: params.reference, actor, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
