import { updateBusinessSettings as update } from '../business/business-settings';
import { defineAction } from './define-action';
import { businessSettingsSchema } from './business.validation';

/** The owner sets the business's time zone and country. */
export const updateBusinessSettings = defineAction({
  name: 'updateBusinessSettings',
  permission: 'team',
  schema: businessSettingsSchema,
  handler: ({ db, session, input }) => update(db, session.businessId, session.actor, { timeZone: input.time_zone, country: input.country }),
});
