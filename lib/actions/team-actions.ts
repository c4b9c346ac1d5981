import { createInvitation, revokeInvitation as revoke } from '../auth/invitations';
import { createPasswordReset } from '../auth/password-resets';
import { removeUser as remove } from '../auth/remove-user';
import { setTwoFactorRequired as setRequired } from '../auth/require-two-factor';
import { updateUserRole as update } from '../auth/update-user-role';
import { defineAction } from './define-action';
import {
  createResetLinkSchema,
  inviteUserSchema,
  removeUserSchema,
  revokeInvitationSchema,
  setTwoFactorRequiredSchema,
  updateUserRoleSchema,
} from './team.validation';

export const inviteUser = defineAction({
  name: 'inviteUser',
  permission: 'team',
  schema: inviteUserSchema,
  handler: ({ db, session, input }) =>
    createInvitation(db, {
      businessId: session.businessId,
      email: input.email,
      role: input.role,
      locationId: input.location_id,
      invitedBy: session.userId,
      actor: session.actor,
    }),
});

export const revokeInvitation = defineAction({
  name: 'revokeInvitation',
  permission: 'team',
  schema: revokeInvitationSchema,
  handler: ({ db, session, input }) => revoke(db, { businessId: session.businessId, invitationId: input.invitation_id, actor: session.actor }),
});

export const createResetLink = defineAction({
  name: 'createResetLink',
  permission: 'team',
  schema: createResetLinkSchema,
  handler: ({ db, session, input }) =>
    createPasswordReset(db, { businessId: session.businessId, userId: input.user_id, createdBy: session.userId, actor: session.actor }),
});

export const setTwoFactorRequired = defineAction({
  name: 'setTwoFactorRequired',
  permission: 'team',
  schema: setTwoFactorRequiredSchema,
  handler: ({ db, session, input }) =>
    setRequired(db, { businessId: session.businessId, byUserId: session.userId, actor: session.actor, required: input.required }),
});

export const updateUserRole = defineAction({
  name: 'updateUserRole',
  permission: 'team',
  schema: updateUserRoleSchema,
  handler: ({ db, session, input }) =>
    update(db, { businessId: session.businessId, userId: input.user_id, role: input.role, byUserId: session.userId, actor: session.actor }),
});

export const removeUser = defineAction({
  name: 'removeUser',
  permission: 'team',
  schema: removeUserSchema,
  handler: ({ db, session, input }) => remove(db, { businessId: session.businessId, userId: input.user_id, byUserId: session.userId, actor: session.actor }),
});
