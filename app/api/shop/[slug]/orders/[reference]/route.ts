import { methodsNotAllowed, shopRoute } from '@/lib/api/api-route';
import { shopOrderStatus } from '@/lib/shop/order-status';

export const GET = shopRoute<{ slug: string; reference: string }>(async ({ db, params }) => ({
  message: 'Order retrieved successfully',
  data: await shopOrderStatus(db, params.slug, params.reference),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
