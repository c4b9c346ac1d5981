import { acceptInvitation as accept } from '../auth/invitations';
import { requestPasswordReset, usePasswordReset } from '../auth/password-resets';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import { parseInput } from '../validation';
import { choosePasswordSchema, forgotPasswordSchema } from './account.validation';
import { type ActionResult, actionFailure } from './define-action';
import { logger } from '../observability/logger';

/** The signed-out pages behind a link: the token is the only credential, so there is no session or role to check. */
async function run<T>(name: string, fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await fn() };
  } catch (err) {
    if (err instanceof ServiceError) return actionFailure(err);
    logger.error({ err }, `link action ${name} failed`);
    return { ok: false, code: 'internal', message: 'Something went wrong on our side; nothing was changed.' };
  }
}

export function acceptInvitationWithToken(db: Db, input: unknown) {
  return run('acceptInvitation', async () => {
    const { token, password } = parseInput(choosePasswordSchema, input);
    const user = await accept(db, { token, password });
    return { email: user.email };
  });
}

export function resetPasswordWithToken(db: Db, input: unknown) {
  return run('resetPassword', async () => {
    const { token, password } = parseInput(choosePasswordSchema, input);
    return usePasswordReset(db, { token, password });
  });
}

export function forgotPasswordWithEmail(db: Db, input: unknown) {
  return run('forgotPassword', async () => {
    const { email } = parseInput(forgotPasswordSchema, input);
    await requestPasswordReset(db, { email });
    return { email };
  });
}
