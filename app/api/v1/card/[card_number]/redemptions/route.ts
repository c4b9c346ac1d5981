import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { cardContracts } from '@/lib/api/contracts/cards';
import { redeemCard } from '@/lib/redemptions/redeem-card';
import { redemptionRequestSchema } from '@/lib/redemptions/redemption-request';
import { parseInput } from '@/lib/validation';

type Params = { card_number: string };

export const POST = apiRoute<Params>(cardContracts.redeemCard, async ({ db, auth, actor, params, body }) => ({
  data: await redeemCard(db, {
    businessId: auth.businessId,
    mode: auth.mode,
    actor,
    cardNumber: params.card_number,
    ...parseInput(redemptionRequestSchema, body),
  }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
