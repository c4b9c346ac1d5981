import { setShop, shopSettingsSchema } from '../shop/shop-settings';
import { defineAction } from './define-action';

/** The owner sets up the business's shop (the back office's PUT …/shop does the same). */
export const updateShop = defineAction({
  name: 'updateShop',
  permission: 'settings',
  schema: shopSettingsSchema,
  handler: ({ db, session, input }) => setShop(db, { businessId: session.businessId, actor: session.actor, input }),
});
