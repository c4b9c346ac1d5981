import { addUser as add } from '../auth/add-user';
import { removeUser as remove } from '../auth/remove-user';
import { updateUserRole as update } from '../auth/update-user-role';
import { defineAction } from './define-action';
import { addUserSchema, removeUserSchema, updateUserRoleSchema } from './team.validation';

export const addUser = defineAction({
  name: 'addUser',
  permission: 'team',
  schema: addUserSchema,
  handler: ({ db, session, input }) => add(db, session.businessId, session.actor, input),
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
