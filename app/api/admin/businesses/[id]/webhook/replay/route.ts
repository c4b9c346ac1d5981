import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { replayWebhooks } from '@/lib/webhooks/replay';

export const POST = adminRoute<{ id: string }>(async ({ db, params, body }) => ({
  message: 'Webhook replay scheduled',
  data: await replayWebhooks(db, (await requireBusiness(db, params.id)).id, body),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
