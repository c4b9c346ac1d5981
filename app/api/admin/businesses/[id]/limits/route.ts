import { adminRoute, methodsNotAllowed } from '@/lib/api/api-route';
import { requireBusiness } from '@/lib/admin/businesses';
import { getLimits, setLimits } from '@/lib/limits/business-limits';
import { modeSchema, parseInput } from '@/lib/validation';
import { z } from 'zod';

// The back office sets live limits unless told otherwise: they guard real money.
const DEFAULT_MODE = 'live';

export const PUT = adminRoute<{ id: string }>(async ({ db, params, body, actor }) => ({
  message: 'Limits updated successfully',
  data: await setLimits(db, { businessId: (await requireBusiness(db, params.id)).id, actor, defaultMode: DEFAULT_MODE, input: body }),
}));

export const GET = adminRoute<{ id: string }>(async ({ db, params, query }) => {
  const { mode } = parseInput(z.object({ mode: modeSchema.default(DEFAULT_MODE) }), { mode: query.get('mode') ?? undefined });
  return {
    message: 'Limits retrieved successfully',
    data: { mode, limits: await getLimits(db, (await requireBusiness(db, params.id)).id, mode) },
  };
});

export const { POST, PATCH, DELETE } = methodsNotAllowed('GET, PUT');
