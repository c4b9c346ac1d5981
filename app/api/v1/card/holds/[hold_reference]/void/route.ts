import { apiRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { holdContracts } from '@/lib/api/contracts/holds';
import { voidHold } from '@/lib/holds/void-hold';

type Params = { hold_reference: string };

export const POST = apiRoute<Params>(holdContracts.voidHold, async ({ db, auth, actor, params }) => ({
  data: await voidHold(db, { businessId: auth.businessId, mode: auth.mode, actor, reference: params.hold_reference }),
}));

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed('POST');
