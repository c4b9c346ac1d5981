import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { creditBusinessAccount } from '@/lib/ledger/deposit';

export const POST = adminRoute<{ id: string }>(async ({ db, params, actor, body }) => ({
  message: 'Business account credited successfully',
  data: await creditBusinessAccount(db, (await requireBusiness(db, params.id)).id, actor, body),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
