import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { locationContracts } from '@/lib/api/contracts/locations';
import { createLocation, listLocations } from '@/lib/locations/locations';

export const POST = apiRoute(locationContracts.createLocation, async ({ db, auth, body }) => ({ data: await createLocation(db, auth.businessId, body) }));

export const GET = apiRoute(locationContracts.listLocations, async ({ db, auth }) => ({ data: await listLocations(db, auth.businessId) }));

export const { PUT, PATCH, DELETE } = methodsNotAllowed('GET, POST');
