import { z } from 'zod';
import type { Role } from '../auth/users';
import { locationIdSchema } from '../locations/location-request';

// Spelled out here (the same list as lib/auth/users.ts) so client forms do not pull in bcrypt.
export const TEAM_ROLES = ['owner', 'operator', 'finance', 'support', 'cashier'] as const satisfies readonly Role[];

const role = z.enum(TEAM_ROLES, { error: `role must be one of ${TEAM_ROLES.join(', ')}.` });
const id = (name: string) =>
  z
    .number({ error: `${name} must be a number.` })
    .int()
    .positive()
    .max(2_147_483_647, { error: `${name} is not a known id.` });

export const inviteUserSchema = z.object({
  email: z.email({ error: 'Enter an email address, like name@example.com.' }).max(254),
  role,
  /** The branch the teammate will be tied to; null or left out: none. */
  location_id: locationIdSchema.nullable().optional(),
});

export const revokeInvitationSchema = z.object({ invitation_id: id('invitation_id') });

export const createResetLinkSchema = z.object({ user_id: id('user_id') });

export const setTwoFactorRequiredSchema = z.object({ required: z.boolean({ error: 'required must be true or false.' }) });

export const updateUserRoleSchema = z.object({ user_id: id('user_id'), role });

export const removeUserSchema = z.object({ user_id: id('user_id') });

export type InviteUserInput = z.input<typeof inviteUserSchema>;
