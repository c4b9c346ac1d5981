import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { ServiceError } from '@/lib/errors';
import { getShop, setShop } from '@/lib/shop/shop-settings';

export const PUT = adminRoute<{ id: string }>(async ({ db, params, body, actor }) => ({
  message: 'Shop updated successfully',
  data: await setShop(db, { businessId: (await requireBusiness(db, params.id)).id, actor, input: body }),
}));

export const GET = adminRoute<{ id: string }>(async ({ db, params }) => {
  const shop = await getShop(db, (await requireBusiness(db, params.id)).id);
  if (!shop) throw new ServiceError('not_found', 'This business has no shop.');
  return { message: 'Shop retrieved successfully', data: shop };
});

export const { POST, PATCH, DELETE } = methodsNotAllowed('GET, PUT');
