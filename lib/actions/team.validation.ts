import { z } from 'zod';
import type { Role } from '../auth/users';

// Spelled out here (the same list as lib/auth/users.ts) so client forms do not pull in bcrypt.
export const TEAM_ROLES = ['owner', 'operator', 'finance', 'support'] as const satisfies readonly Role[];

export const addUserSchema = z.object({
  email: z.email({ error: 'email must be a valid email address.' }).max(254),
  password: z.string({ error: 'password is required.' }).min(10, { error: 'password must be at least 10 characters.' }).max(200),
  role: z.enum(TEAM_ROLES, { error: `role must be one of ${TEAM_ROLES.join(', ')}.` }),
});

export const updateUserRoleSchema = z.object({
  user_id: z.number({ error: 'user_id must be a number.' }).int().positive(),
  role: z.enum(TEAM_ROLES, { error: `role must be one of ${TEAM_ROLES.join(', ')}.` }),
});

export const removeUserSchema = z.object({
  user_id: z.number({ error: 'user_id must be a number.' }).int().positive(),
});

export type AddUserInput = z.input<typeof addUserSchema>;
