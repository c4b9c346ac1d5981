import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { createBusiness } from '@/lib/admin/businesses';

export const POST = adminRoute(async ({ db, body }) => ({
  status: 201,
  message: 'Business created successfully',
  data: await createBusiness(db, body),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
