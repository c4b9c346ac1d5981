import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { createUser } from '@/lib/auth/users';

export const POST = adminRoute<{ id: string }>(async ({ db, params, body }) => ({
  status: 201,
  message: 'User created successfully',
  data: await createUser(db, (await requireBusiness(db, params.id)).id, body),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
