import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { payoutContracts } from '@/lib/api/contracts/payouts';
import { getPayoutStatus } from '@/lib/payouts/get-payout-status';

export const GET = apiRoute<{ reference: string }>(payoutContracts.getPayoutStatus, async ({ db, auth, params }) => ({
  data: await getPayoutStatus(db, { businessId: auth.businessId, mode: auth.mode, reference: params.reference }),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
