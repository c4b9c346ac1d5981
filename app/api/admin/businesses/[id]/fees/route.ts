import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { setFeeSchedule } from '@/lib/fees/fee-schedule';

export const PUT = adminRoute<{ id: string }>(async ({ db, params, body }) => ({
  message: 'Fee schedule updated successfully',
  data: await setFeeSchedule(db, (await requireBusiness(db, params.id)).id, body),
}));

export const { GET, POST, PATCH, DELETE } = methodsNotAllowed('PUT');
