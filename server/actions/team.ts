'use server';

import { runAction } from '@/server/run-action';
import * as defs from '@/lib/actions/team-actions';

export async function addUser(input: unknown) {
  return runAction(defs.addUser, input);
}

export async function updateUserRole(input: unknown) {
  return runAction(defs.updateUserRole, input);
}

export async function removeUser(input: unknown) {
  return runAction(defs.removeUser, input);
}
