import { setLimits } from '../limits/business-limits';
import { defineAction } from './define-action';
import { limitsFormSchema } from './limits.validation';

/** The owner sets one currency's limits in the mode the dashboard is in. */
export const updateLimits = defineAction({
  name: 'updateLimits',
  permission: 'settings',
  schema: limitsFormSchema,
  handler: ({ db, session, input }) =>
    setLimits(db, { businessId: session.businessId, actor: session.actor, defaultMode: session.mode, input: { ...input, mode: session.mode } }),
});
