import { messageKindsSchema, setMessageKinds } from '../messages/message-kind-settings';
import { setBusinessLocale } from '../business/business-locale';
import { updateBusinessSettings as update } from '../business/business-settings';
import { defineAction } from './define-action';
import { businessLocaleSchema } from '../business/business-locale.validation';
import { businessSettingsSchema } from './business.validation';

/** The owner sets the business's time zone and country. */
export const updateBusinessSettings = defineAction({
  name: 'updateBusinessSettings',
  permission: 'team',
  schema: businessSettingsSchema,
  handler: ({ db, session, input }) => update(db, session.businessId, session.actor, { timeZone: input.time_zone, country: input.country }),
});

/** The owner sets the language and calendar the business's customers read (the back office's PUT …/locale does the same). */
export const updateCustomerLocale = defineAction({
  name: 'updateCustomerLocale',
  permission: 'team',
  schema: businessLocaleSchema,
  handler: ({ db, session, input }) => setBusinessLocale(db, session.businessId, session.actor, input),
});

/** The owner turns kinds of message to cardholders on or off. */
export const updateMessageKinds = defineAction({
  name: 'updateMessageKinds',
  permission: 'team',
  schema: messageKindsSchema,
  handler: ({ db, session, input }) => setMessageKinds(db, session.businessId, session.actor, input),
});
