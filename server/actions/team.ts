'use server';

import { runAction } from '@/server/run-action';
import * as defs from '@/lib/actions/team-actions';

export async function inviteUser(input: unknown) {
  return runAction(defs.inviteUser, input);
}

export async function revokeInvitation(input: unknown) {
  return runAction(defs.revokeInvitation, input);
}

export async function createResetLink(input: unknown) {
  return runAction(defs.createResetLink, input);
}

export async function setTwoFactorRequired(input: unknown) {
  return runAction(defs.setTwoFactorRequired, input);
}

export async function updateUserRole(input: unknown) {
  return runAction(defs.updateUserRole, input);
}

export async function removeUser(input: unknown) {
  return runAction(defs.removeUser, input);
}
