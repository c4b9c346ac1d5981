import { setExpiryPolicy as setPolicy } from '../business/expiry-policy';
import { extendCardExpiry as extend } from '../cards/extend-card-expiry';
import { defineAction } from './define-action';
import { expiryPolicySchema, extendExpirySchema } from '../cards/expiry.validation';

/** The owner chooses when the business's cards expire (from the settings page). */
export const setExpiryPolicy = defineAction({
  name: 'business.expiryPolicy',
  permission: 'settings',
  schema: expiryPolicySchema,
  handler: ({ db, session, input }) => setPolicy(db, session.businessId, session.actor, input),
});

/** Support or finance give one card a later expiry, with a reason (the card page, the expiring list). */
export const extendCardExpiry = defineAction({
  name: 'cards.extendExpiry',
  permission: 'cards:expiry',
  schema: extendExpirySchema,
  handler: async ({ db, session, input }) => {
    const { expiresAt } = await extend(db, {
      businessId: session.businessId,
      mode: session.mode,
      cardNumber: input.card_number,
      actor: session.actor,
      input: { expires_on: input.expires_on, reason: input.reason },
    });
    return { expiresAt: expiresAt.toISOString() };
  },
});
