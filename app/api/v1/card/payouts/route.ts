import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { payoutContracts } from '@/lib/api/contracts/payouts';
import { parsePageQuery } from '@/lib/pagination';
import { createPayout } from '@/lib/payouts/create-payout';
import { committedPayoutAnswer } from '@/lib/payouts/payout-answer';
import { listPayouts } from '@/lib/payouts/list-payouts';

export const POST = apiRoute(
  payoutContracts.createPayout,
  async ({ db, auth, actor, body }) => ({
    data: await createPayout(db, { businessId: auth.businessId, mode: auth.mode, actor, input: body }),
  }),
  {
    confirmsKey: true,
    replayCommitted: async ({ db, auth }, committed) => {
      const data = await committedPayoutAnswer(db, { businessId: auth.businessId, mode: auth.mode, committed });
      return data && { data };
    },
  },
);

export const GET = apiRoute(payoutContracts.listPayouts, async ({ db, auth, query }) => ({
  data: await listPayouts(db, { businessId: auth.businessId, mode: auth.mode, page: parsePageQuery(query) }),
}));

export const { PUT, PATCH, DELETE } = methodsNotAllowed('GET, POST');
