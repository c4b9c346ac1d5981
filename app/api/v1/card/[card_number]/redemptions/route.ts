import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { cardContracts } from '@/lib/api/contracts/cards';
import { redeemCard } from '@/lib/redemptions/redeem-card';
import { isSpendCodeRequired } from '@/lib/spend-codes/request-spend-code';
import { redemptionRequestSchema } from '@/lib/redemptions/redemption-request';
import { parseInput } from '@/lib/validation';

type Params = { card_number: string };

export const POST = apiRoute<Params>(cardContracts.redeemCard, async ({ db, auth, actor, params, body }) => {
  const answer = await redeemCard(db, {
    businessId: auth.businessId,
    mode: auth.mode,
    actor,
    cardNumber: params.card_number,
    ...parseInput(redemptionRequestSchema, body),
  });
  // Over the business's spend_code_over: 202, waiting for the cardholder's code.
  return { data: answer, accepted: isSpendCodeRequired(answer) };
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
