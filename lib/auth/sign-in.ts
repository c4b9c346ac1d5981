import type { Db } from '../db/client';
import { SIGN_IN_LIMITED, type SignInGate } from './sign-in-limits';
import { ServiceError } from '../errors';
import { checkSecondFactor, isSpentCode } from './two-factor';
import { checkPassword, recordSignIn, type Role } from './users';

/** next-auth's `error` when the password was right and the account needs its second factor: the form then asks for a code. */
export const TWO_FACTOR_NEEDED = 'TwoFactorRequired';
/** next-auth's `error` for a right code already used once (the set-up's own code, say): the form says to wait for the next one. */
export const CODE_ALREADY_USED = 'CodeAlreadyUsed';

export interface SignInAttempt {
  email: string;
  password: string;
  /** The authenticator's 6-digit code or a recovery code; sent with the password again on the form's second step. */
  code?: string;
  address: string;
}

export interface SignedInUser {
  id: number;
  email: string;
  role: Role;
  businessId: number;
  /** Goes into the session token: a later password or two-factor change bumps it and ends this session. */
  sessionVersion: number;
}

/**
 * One sign-in, for next-auth's credentials authorize: a user, null (wrong email,
 * password or code: one answer, counted as a failure by the limits), or a thrown
 * SIGN_IN_LIMITED / TWO_FACTOR_NEEDED. Only a right password learns that a code
 * is needed, so a guesser learns nothing about two-factor; asking for the code
 * counts neither as a failure nor as a success, so it cannot clear the failures
 * of wrong codes.
 */
export async function authorizeSignIn(db: Db, limits: SignInGate, attempt: SignInAttempt): Promise<SignedInUser | null> {
  const email = attempt.email.trim().toLowerCase();
  if (!(await limits.admit(email, attempt.address))) throw new Error(SIGN_IN_LIMITED);
  const user = await checkPassword(db, email, attempt.password);
  if (!user) {
    await limits.failed(email, attempt.address);
    return null;
  }
  if (user.twoFactor) {
    const code = attempt.code?.trim();
    if (!code) throw new Error(TWO_FACTOR_NEEDED);
    const factor = await checkSecondFactor(db, user.id, code).catch((err: unknown) => {
      if (err instanceof ServiceError && err.code === 'rate_limited') throw new Error(SIGN_IN_LIMITED);
      throw err;
    });
    if (!factor) {
      await limits.failed(email, attempt.address);
      if (await isSpentCode(db, user.id, code)) throw new Error(CODE_ALREADY_USED);
      return null;
    }
  }
  await limits.succeeded(email, attempt.address);
  await recordSignIn(db, user.id);
  return { id: user.id, email: user.email, role: user.role, businessId: user.businessId, sessionVersion: user.sessionVersion };
}
