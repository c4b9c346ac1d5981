import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { eventContracts } from '@/lib/api/contracts/events';
import { parsePageQuery } from '@/lib/pagination';
import { listEvents } from '@/lib/webhooks/list-events';

export const GET = apiRoute(eventContracts.listEvents, async ({ db, auth, query }) => ({
  data: await listEvents(db, {
    businessId: auth.businessId,
    mode: auth.mode,
    page: parsePageQuery(query),
    filters: { type: query.get('type'), undelivered: query.get('undelivered') },
  }),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
