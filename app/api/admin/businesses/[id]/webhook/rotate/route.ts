import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-secret';

export const POST = adminRoute<{ id: string }>(async ({ db, params, body }) => ({
  message: 'Webhook secret rotated successfully',
  data: await rotateWebhookSecret(db, (await requireBusiness(db, params.id)).id, body),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
