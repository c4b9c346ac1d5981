import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { retryJob } from '@/lib/admin/jobs';

export const POST = adminRoute<{ id: string }>(async ({ db, params, actor, body }) => ({
  message: 'Job retry scheduled',
  data: await retryJob(db, { id: params.id, actor, input: body }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
