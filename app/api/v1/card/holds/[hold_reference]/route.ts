import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { holdContracts } from '@/lib/api/contracts/holds';
import { requireTillHold, toTillHold } from '@/lib/holds/till-hold-view';

type Params = { hold_reference: string };

export const GET = apiRoute<Params>(holdContracts.getHold, async ({ db, auth, params }) => ({
  data: toTillHold(await requireTillHold(db, auth.businessId, auth.mode, params.hold_reference)),
}));

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed('GET');
