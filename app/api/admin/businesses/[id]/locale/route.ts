import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { getBusinessLocale, setBusinessLocale } from '@/lib/business/business-locale';

export const PUT = adminRoute<{ id: string }>(async ({ db, params, body, actor }) => ({
  message: 'Business settings updated successfully',
  data: await setBusinessLocale(db, (await requireBusiness(db, params.id)).id, actor, body),
}));

export const GET = adminRoute<{ id: string }>(async ({ db, params }) => ({
  message: 'Business settings retrieved successfully',
  data: await getBusinessLocale(db, (await requireBusiness(db, params.id)).id),
}));

export const { POST, PATCH, DELETE } = methodsNotAllowed('GET, PUT');
