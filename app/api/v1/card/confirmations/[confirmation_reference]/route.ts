import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { cardContracts } from '@/lib/api/contracts/cards';
import { confirmSpend, confirmSpendSchema } from '@/lib/spend-codes/confirm-spend';
import { parseInput } from '@/lib/validation';

type Params = { confirmation_reference: string };

export const POST = apiRoute<Params>(cardContracts.confirmSpend, async ({ db, auth, actor, params, body }) => {
  const spent = await confirmSpend(db, {
    businessId: auth.businessId,
    mode: auth.mode,
    actor,
    reference: params.confirmation_reference,
    ...parseInput(confirmSpendSchema, body),
  });
  return { data: spent, message: 'hold_reference' in spent ? 'Hold captured successfully' : 'Gift card redeemed successfully' };
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
