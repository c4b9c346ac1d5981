import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { cardContracts } from '@/lib/api/contracts/cards';
import { shareCard } from '@/lib/messages/share-card';

type Params = { card_number: string };

export const POST = apiRoute<Params>(cardContracts.shareCard, async ({ db, auth, params, body }) => ({
  data: await shareCard(db, { businessId: auth.businessId, mode: auth.mode, cardNumber: params.card_number, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
