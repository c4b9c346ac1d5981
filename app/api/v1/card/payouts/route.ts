import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { parsePageQuery } from '@/lib/api/pagination';
import { createPayout } from '@/lib/payouts/create-payout';
import { listPayouts } from '@/lib/payouts/list-payouts';

export const POST = apiRoute(
  async ({ db, auth, actor, body }) => ({
    message: 'Payout initiated successfully',
    data: await createPayout(db, { businessId: auth.businessId, mode: auth.mode, actor, input: body }),
  }),
  { confirmsKey: true },
);

export const GET = apiRoute(async ({ db, auth, query }) => ({
  message: 'Payouts retrieved successfully',
  data: await listPayouts(db, { businessId: auth.businessId, mode: auth.mode, page: parsePageQuery(query) }),
}));

export const { PUT, PATCH, DELETE } = methodsNotAllowed('GET, POST');
