import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { parsePageQuery } from '@/lib/pagination';
import { requireBusiness } from '@/lib/admin/businesses';
import type { Mode } from '@/lib/validation';
import { listDeliveries } from '@/lib/webhooks/list-deliveries';

export const GET = adminRoute<{ id: string }>(async ({ db, params, query }) => ({
  message: 'Webhook deliveries retrieved successfully',
  data: await listDeliveries(db, {
    businessId: (await requireBusiness(db, params.id)).id,
    mode: (query.get('mode') ?? 'test') as Mode,
    page: parsePageQuery(query),
    eventId: query.get('event_id') ?? undefined,
  }),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
