import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { payoutContracts } from '@/lib/api/contracts/payouts';
import { createTransfer } from '@/lib/payouts/create-transfer';

export const POST = apiRoute(payoutContracts.createTransfer, async ({ db, auth, actor, body }) => ({
  data: await createTransfer(db, { businessId: auth.businessId, mode: auth.mode, actor, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
