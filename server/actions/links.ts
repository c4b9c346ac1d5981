'use server';

import { acceptInvitationWithToken, forgotPasswordWithEmail, resetPasswordWithToken } from '@/lib/actions/link-actions';
import { getDb } from '@/lib/db/client';

export async function acceptInvitation(input: unknown) {
  return acceptInvitationWithToken(getDb(), input);
}

export async function resetPassword(input: unknown) {
  return resetPasswordWithToken(getDb(), input);
}

export async function forgotPassword(input: unknown) {
  return forgotPasswordWithEmail(getDb(), input);
}
