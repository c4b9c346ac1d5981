import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { cardContracts } from '@/lib/api/contracts/cards';
import { parsePageQuery } from '@/lib/pagination';
import { createCard } from '@/lib/cards/create-card';
import { listCards } from '@/lib/cards/list-cards';

export const POST = apiRoute(cardContracts.createCard, async ({ db, auth, actor, body }) => ({
  data: await createCard(db, { businessId: auth.businessId, mode: auth.mode, actor, input: body }),
}));

export const GET = apiRoute(cardContracts.listCards, async ({ db, auth, query }) => ({
  data: await listCards(db, {
    businessId: auth.businessId,
    mode: auth.mode,
    page: parsePageQuery(query),
    phoneNumber: query.get('phone_number') ?? undefined,
  }),
}));

export const { PUT, PATCH, DELETE } = methodsNotAllowed('GET, POST');
