import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { setCardStatusAsProvider } from '@/lib/cards/set-card-status';

export const POST = adminRoute<{ card_number: string }>(async ({ db, params, actor }) => ({
  message: 'Gift card enabled by the provider',
  data: await setCardStatusAsProvider(db, params.card_number, 'enable', actor),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
