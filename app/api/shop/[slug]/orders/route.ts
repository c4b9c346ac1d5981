import { methodsNotAllowed, shopRoute } from '@/lib/api/api-route';
import { createShopOrder } from '@/lib/shop/create-order';

export const POST = shopRoute<{ slug: string }>(async ({ db, params, body, address }) => ({
  status: 201,
  message: 'Order created successfully',
  data: await createShopOrder(db, { slug: params.slug, address, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
