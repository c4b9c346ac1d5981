import { methodsNotAllowed, shopRoute } from '@/lib/api/api-route';
import { shopOrderStatus } from '@/lib/shop/order-status';

export const GET = shopRoute<{ slug: string; reference: string }>(async ({ db, params, address }) => ({
  message: 'Order retrieved successfully',
  data: await shopOrderStatus(db, { slug: params.slug, reference: params.reference, address }),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
