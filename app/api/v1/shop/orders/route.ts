import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { phoneQuery, shopContracts } from '@/lib/api/contracts/shop';
import { parsePageQuery } from '@/lib/pagination';
import { listShopOrders } from '@/lib/shop/list-orders';
import { parseInput } from '@/lib/validation';
import { z } from 'zod';

export const GET = apiRoute(shopContracts.listShopOrders, async ({ db, auth, query }) => ({
  data: await listShopOrders(db, {
    businessId: auth.businessId,
    mode: auth.mode,
    page: parsePageQuery(query),
    phone: parseInput(z.object({ phone: phoneQuery }), { phone: query.get('phone') ?? undefined }).phone,
  }),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
