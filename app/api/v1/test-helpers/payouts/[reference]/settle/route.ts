import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { payoutContracts } from '@/lib/api/contracts/payouts';
import { settlePayoutAsProvider } from '@/lib/payouts/settle-payout-as-provider';

export const POST = apiRoute<{ reference: string }>(payoutContracts.settlePayout, async ({ db, auth, actor, params, body }) => ({
  data: await settlePayoutAsProvider(db, { businessId: auth.businessId, mode: auth.mode, reference: params.reference, actor, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
