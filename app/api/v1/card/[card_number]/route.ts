import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { cardContracts } from '@/lib/api/contracts/cards';
import { cancelCard } from '@/lib/cards/cancel-card';
import { getCard } from '@/lib/cards/get-card';
import { updateCard } from '@/lib/cards/update-card';

type Params = { card_number: string };

export const GET = apiRoute<Params>(cardContracts.getCard, async ({ db, auth, params }) => ({
  data: await getCard(db, { businessId: auth.businessId, mode: auth.mode, cardNumber: params.card_number }),
}));

export const PATCH = apiRoute<Params>(cardContracts.setCardStatus, async ({ db, auth, actor, params, body }) => {
  const { card, message } = await updateCard(db, { businessId: auth.businessId, mode: auth.mode, cardNumber: params.card_number, actor, input: body });
  return { message, data: card };
});

export const DELETE = apiRoute<Params>(cardContracts.cancelCard, async ({ db, auth, actor, params }) => {
  await cancelCard(db, { businessId: auth.businessId, mode: auth.mode, cardNumber: params.card_number, actor });
  return { data: null };
});

export const { POST, PUT } = methodsNotAllowed('GET, PATCH, DELETE');
