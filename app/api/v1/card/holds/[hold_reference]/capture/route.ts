import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { holdContracts } from '@/lib/api/contracts/holds';
import { captureHold } from '@/lib/holds/capture-hold';
import { captureRequestSchema } from '@/lib/holds/till-hold-request';
import { isSpendCodeRequired } from '@/lib/spend-codes/request-spend-code';
import { parseInput } from '@/lib/validation';

type Params = { hold_reference: string };

export const POST = apiRoute<Params>(holdContracts.captureHold, async ({ db, auth, actor, params, body }) => {
  const answer = await captureHold(db, {
    businessId: auth.businessId,
    mode: auth.mode,
    actor,
    reference: params.hold_reference,
    ...parseInput(captureRequestSchema, body),
  });
  // Over the business's spend_code_over: 202, waiting for the cardholder's code.
  return { data: answer, accepted: isSpendCodeRequired(answer) };
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
