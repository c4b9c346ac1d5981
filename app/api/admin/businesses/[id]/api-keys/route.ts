import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { issueBusinessKey, requireBusiness } from '@/lib/admin/businesses';

export const POST = adminRoute<{ id: string }>(async ({ db, params, body }) => ({
  status: 201,
  message: 'API key issued successfully',
  data: await issueBusinessKey(db, (await requireBusiness(db, params.id)).id, body),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
