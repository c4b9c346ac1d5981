import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { listJobs } from '@/lib/admin/jobs';
import { parsePageQuery } from '@/lib/pagination';

export const GET = adminRoute(async ({ db, query }) => ({
  message: 'Jobs retrieved successfully',
  data: await listJobs(db, {
    filters: Object.fromEntries(['state', 'kind', 'business_id', 'mode'].filter((k) => query.has(k)).map((k) => [k, query.get(k)!.trim()])),
    page: parsePageQuery(query),
  }),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
