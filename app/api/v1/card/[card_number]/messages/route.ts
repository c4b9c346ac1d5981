import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { cardContracts } from '@/lib/api/contracts/cards';
import { listCardMessages } from '@/lib/messages/list-messages';
import { parsePageQuery } from '@/lib/pagination';

type Params = { card_number: string };

export const GET = apiRoute<Params>(cardContracts.listCardMessages, async ({ db, auth, params, query }) => ({
  data: await listCardMessages(db, { businessId: auth.businessId, mode: auth.mode, cardNumber: params.card_number, page: parsePageQuery(query) }),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
