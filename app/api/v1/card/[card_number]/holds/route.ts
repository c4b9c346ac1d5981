import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { holdContracts } from '@/lib/api/contracts/holds';
import { parsePageQuery } from '@/lib/pagination';
import { listCardHolds } from '@/lib/holds/list-card-holds';
import { placeTillHold } from '@/lib/holds/place-till-hold';
import { holdRequestSchema } from '@/lib/holds/till-hold-request';
import { parseInput } from '@/lib/validation';

type Params = { card_number: string };

export const POST = apiRoute<Params>(holdContracts.placeHold, async ({ db, auth, actor, params, body }) => ({
  data: await placeTillHold(db, {
    businessId: auth.businessId,
    mode: auth.mode,
    actor,
    cardNumber: params.card_number,
    ...parseInput(holdRequestSchema, body),
  }),
}));

export const GET = apiRoute<Params>(holdContracts.listCardHolds, async ({ db, auth, params, query }) => ({
  data: await listCardHolds(db, { businessId: auth.businessId, mode: auth.mode, cardNumber: params.card_number, page: parsePageQuery(query) }),
}));

export const { PUT, PATCH, DELETE } = methodsNotAllowed('GET, POST');
