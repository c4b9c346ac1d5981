import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { registerWebhookEndpoint } from '@/lib/webhooks/endpoints';

export const PUT = adminRoute<{ id: string }>(async ({ db, params, body }) => ({
  message: 'Webhook registered successfully',
  data: await registerWebhookEndpoint(db, (await requireBusiness(db, params.id)).id, body),
}));

export const { GET, POST, PATCH, DELETE } = methodsNotAllowed('PUT');
