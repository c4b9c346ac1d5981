import { changePassword as change } from '../auth/change-password';
import { updateUserPreferences } from '../auth/user-preferences';
import { confirmTwoFactor as confirm, disableTwoFactor as disable } from '../auth/two-factor';
import { changePasswordSchema, confirmTwoFactorSchema, disableTwoFactorSchema, preferencesSchema } from './account.validation';
import { defineAction } from './define-action';

export const changePassword = defineAction({
  name: 'changePassword',
  permission: 'account',
  schema: changePasswordSchema,
  handler: ({ db, session, input }) =>
    change(db, {
      userId: session.userId,
      businessId: session.businessId,
      currentPassword: input.current_password,
      newPassword: input.new_password,
      actor: session.actor,
    }),
});

export const confirmTwoFactor = defineAction({
  name: 'confirmTwoFactor',
  permission: 'account',
  schema: confirmTwoFactorSchema,
  beforeTwoFactor: true,
  handler: ({ db, session, input }) => confirm(db, { userId: session.userId, businessId: session.businessId, code: input.code, actor: session.actor }),
});

export const disableTwoFactor = defineAction({
  name: 'disableTwoFactor',
  permission: 'account',
  schema: disableTwoFactorSchema,
  handler: async ({ db, session, input }) => {
    await disable(db, { userId: session.userId, businessId: session.businessId, proof: input.proof, actor: session.actor });
    return { off: true };
  },
});

/** The person's own language and calendar for every page they read. */
export const updatePreferences = defineAction({
  name: 'updatePreferences',
  permission: 'account',
  schema: preferencesSchema,
  beforeTwoFactor: true,
  handler: ({ db, session, input }) =>
    updateUserPreferences(
      db,
      { userId: session.userId, businessId: session.businessId },
      { language: input.language === 'browser' ? null : input.language, calendar: input.calendar },
    ),
});
