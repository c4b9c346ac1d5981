import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { parsePageQuery } from '@/lib/pagination';
import { createBusiness, listBusinesses } from '@/lib/admin/businesses';

export const POST = adminRoute(async ({ db, body }) => ({
  status: 201,
  message: 'Business created successfully',
  data: await createBusiness(db, body),
}));

export const GET = adminRoute(async ({ db, query }) => ({
  message: 'Businesses retrieved successfully',
  data: await listBusinesses(db, { search: query.get('search') ?? undefined, page: parsePageQuery(query) }),
}));

export const { PUT, PATCH, DELETE } = methodsNotAllowed('GET, POST');
