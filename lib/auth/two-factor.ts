import { randomInt } from 'node:crypto';
import { and, eq, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { Actor } from '../actor';
import { recordAudit } from '../audit';
import type { Db, DbOrTx } from '../db/client';
import { businesses, recoveryCodes, users } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { ServiceError } from '../errors';
import { sha256Hex } from '../ids';

const ISSUER = 'Gift cards';
/** One step either side of now: a phone clock off by up to 30 seconds still works. */
const EPOCH_TOLERANCE_SECONDS = 30;
const RECOVERY_CODE_COUNT = 10;
/** Wrong second factors in a row before each further try waits; the wait doubles from a minute up to an hour. */
const FREE_SECOND_FACTOR_FAILURES = 5;
const FIRST_LOCK_SECONDS = 60;
const MAX_LOCK_SECONDS = 3600;
// No 0/o, 1/l/i: read from paper and typed by hand.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export interface TwoFactorSetup {
  /** The base32 key, for typing into an app by hand. */
  secret: string;
  /** The same key as a QR code, a data: URL (the page's CSP allows data: images and nothing inline). */
  qrDataUrl: string;
}

async function userRow(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({ email: users.email, businessId: users.businessId, secret: users.totpSecret, enabledAt: users.totpEnabledAt, lastStep: users.totpLastStep })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw new ServiceError('user_not_found', 'No such user.');
  return row;
}

export async function twoFactorEnabled(db: DbOrTx, userId: number): Promise<boolean> {
  return (await userRow(db, userId)).enabledAt !== null;
}

/** The key being set up (kept while unconfirmed, so reloading the page keeps the QR code the app has scanned); null when already on. */
export async function startTwoFactorSetup(db: DbOrTx, userId: number): Promise<TwoFactorSetup | null> {
  const row = await userRow(db, userId);
  if (row.enabledAt) return null;
  let secret = row.secret;
  if (!secret) {
    secret = generateSecret();
    await db
      .update(users)
      .set({ totpSecret: secret, totpLastStep: null })
      .where(and(eq(users.id, userId), isNull(users.totpEnabledAt)));
  }
  const uri = generateURI({ issuer: ISSUER, label: row.email, secret });
  return { secret, qrDataUrl: await QRCode.toDataURL(uri, { margin: 1, width: 220, errorCorrectionLevel: 'M' }) };
}

/**
 * A code of the user's key, accepted at most once: its time step must be later than the last accepted one,
 * and the step is written in the same statement that checks it, so two requests with one code get one yes.
 */
async function acceptTotp(db: DbOrTx, userId: number, secret: string, lastStep: number | null, code: string): Promise<boolean> {
  if (!/^\d{6}$/.test(code)) return false;
  // otplib throws when afterTimeStep is past the window it checks; a stored step that far ahead (a clock that ran fast) makes every code wrong until the clock catches up.
  if (lastStep !== null && lastStep > Math.floor(Date.now() / 1000 / 30) + 1) return false;
  const result = await verify({ secret, token: code, epochTolerance: EPOCH_TOLERANCE_SECONDS, ...(lastStep !== null && { afterTimeStep: lastStep }) });
  if (!result.valid || !('timeStep' in result)) return false;
  const taken = await db
    .update(users)
    .set({ totpLastStep: result.timeStep })
    .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, result.timeStep))))
    .returning({ id: users.id });
  return taken.length === 1;
}

/**
 * Whether a refused code is one of the user's key that was already accepted (its step is not past the last
 * accepted one): typically the code that just turned two-factor on, typed again at the sign-in that follows
 * before the app shows a new one. The sign-in then says to wait for the next code instead of calling it wrong.
 */
export async function isSpentCode(db: DbOrTx, userId: number, input: string): Promise<boolean> {
  const code = input.replace(/\s/g, '');
  if (!/^\d{6}$/.test(code)) return false;
  const row = await userRow(db, userId);
  // A stored step ahead of the clock (see acceptTotp) is not "wait for the next code": no code will do until it passes.
  if (!row.secret || row.lastStep === null || row.lastStep > Math.floor(Date.now() / 1000 / 30) + 1) return false;
  const result = await verify({ secret: row.secret, token: code, epochTolerance: EPOCH_TOLERANCE_SECONDS });
  return result.valid && 'timeStep' in result && result.timeStep <= row.lastStep;
}

const secondFactorLocked = () => new ServiceError('rate_limited', 'Too many wrong codes or passwords in a row: wait a few minutes before trying again.');

/**
 * Runs one check of something only this user should know (a second factor, the current password) against a
 * per-user limit kept in the database: after FREE_SECOND_FACTOR_FAILURES wrong answers in a row each further try
 * waits, 1 minute doubling to 1 hour; a right answer clears the count. The try is counted before it is checked,
 * in one statement, so parallel guesses cannot all slip in before the lock. Only someone past the password (or
 * signed in) reaches it, so no one else can lock a user out. Throws secondFactorLocked() while locked.
 */
export async function withSecondFactorLimit<T>(db: DbOrTx, userId: number, check: () => Promise<T | null | false>): Promise<T | null> {
  const counted = await db
    .update(users)
    .set({
      totpFailures: sql`${users.totpFailures} + 1`,
      totpLockedUntil: sql`case when ${users.totpFailures} + 1 >= ${FREE_SECOND_FACTOR_FAILURES}
        then now() + least(${MAX_LOCK_SECONDS}, ${FIRST_LOCK_SECONDS} * power(2, ${users.totpFailures} + 1 - ${FREE_SECOND_FACTOR_FAILURES})) * interval '1 second'
        else null end`,
    })
    .where(and(eq(users.id, userId), or(isNull(users.totpLockedUntil), lte(users.totpLockedUntil, sql`now()`))))
    .returning({ id: users.id });
  if (counted.length === 0) throw secondFactorLocked();
  const result = await check();
  if (result === null || result === false) return null;
  await db.update(users).set({ totpFailures: 0, totpLockedUntil: null }).where(eq(users.id, userId));
  return result;
}

const normalRecovery = (code: string) => code.toLowerCase().replace(/[^a-z0-9]/g, '');

function newRecoveryCode(): string {
  let out = '';
  for (let i = 0; i < 10; i++) out += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

async function replaceRecoveryCodes(tx: DbOrTx, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await tx.insert(recoveryCodes).values(codes.map((c) => ({ userId, codeHash: sha256Hex(normalRecovery(c)) })));
  return codes;
}

export interface ConfirmTwoFactorOptions {
  userId: number;
  businessId: number;
  code: string;
  actor: Actor;
}

/** The first right code turns two-factor sign-in on; the ten recovery codes are returned once and kept only as hashes. */
export async function confirmTwoFactor(db: Db, opts: ConfirmTwoFactorOptions): Promise<{ recoveryCodes: string[] }> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .select({ email: users.email, secret: users.totpSecret, enabledAt: users.totpEnabledAt, lastStep: users.totpLastStep })
      .from(users)
      .where(and(eq(users.id, opts.userId), eq(users.businessId, opts.businessId)))
      .for('update');
    if (!row) throw new ServiceError('user_not_found', 'No such user.');
    if (row.enabledAt) throw new ServiceError('already_exists', 'Two-factor sign-in is already on.');
    if (!row.secret) throw new ServiceError('validation_error', { code: 'Open the set-up page again: the key has not been made yet.' });
    if (!(await acceptTotp(tx, opts.userId, row.secret, row.lastStep, opts.code.trim()))) {
      throw new ServiceError('validation_error', { code: 'That code is not right. Check the app shows this account, and type the newest code.' });
    }
    await tx
      .update(users)
      .set({ totpEnabledAt: sql`now()`, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, opts.userId));
    const codes = await replaceRecoveryCodes(tx, opts.userId);
    await recordAudit(tx, { businessId: opts.businessId, mode: null, actor: opts.actor, action: 'user.two_factor_enabled', target: row.email });
    return { recoveryCodes: codes };
  });
}

export type SecondFactor = 'code' | 'recovery_code';

/**
 * Checks a sign-in's second factor: a 6-digit code not used before, or one of the
 * recovery codes, which is spent (and audited). Null when neither. Counted against
 * the user's limit (withSecondFactorLimit): throws secondFactorLocked() while locked.
 */
export async function checkSecondFactor(db: Db, userId: number, input: string): Promise<SecondFactor | null> {
  const row = await userRow(db, userId);
  if (!row.enabledAt || !row.secret) return null;
  const secret = row.secret;
  return withSecondFactorLimit(db, userId, () => secondFactorOf(db, userId, { ...row, secret }, input));
}

async function secondFactorOf(
  db: Db,
  userId: number,
  row: { businessId: number; email: string; secret: string; lastStep: number | null },
  input: string,
): Promise<SecondFactor | null> {
  const code = input.trim();
  if (/^\d{6}$/.test(code.replace(/\s/g, ''))) return (await acceptTotp(db, userId, row.secret, row.lastStep, code.replace(/\s/g, ''))) ? 'code' : null;
  const normal = normalRecovery(code);
  if (normal.length !== 10) return null;
  return inTransaction(db, async (tx) => {
    const spent = await tx
      .update(recoveryCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, sha256Hex(normal)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    if (spent.length === 0) return null;
    const [{ left }] = await tx
      .select({ left: sql<number>`count(*)::int` })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    await recordAudit(tx, {
      businessId: row.businessId,
      mode: null,
      actor: { type: 'user', id: String(userId) },
      action: 'user.recovery_code_used',
      target: row.email,
      details: { codes_left: left },
    });
    return 'recovery_code';
  });
}

export async function recoveryCodesLeft(db: DbOrTx, userId: number): Promise<number> {
  const [{ left }] = await db
    .select({ left: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return left;
}

export interface DisableTwoFactorOptions {
  userId: number;
  businessId: number;
  /** A current code from the app, or an unused recovery code. */
  proof: string;
  actor: Actor;
}

/**
 * Turns two-factor sign-in off, unless the business requires it; needs a current code or a recovery code
 * (the password alone is not enough: it is what a second factor is there to back up). Wrong tries count
 * against the user's limit; older sessions end.
 */
export async function disableTwoFactor(db: Db, opts: DisableTwoFactorOptions): Promise<void> {
  const [biz] = await db.select({ required: businesses.requireTwoFactor }).from(businesses).where(eq(businesses.id, opts.businessId));
  if (biz?.required) throw new ServiceError('forbidden', 'Your business requires two-factor sign-in, so it cannot be turned off.');
  const [row] = await db
    .select({ email: users.email, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(and(eq(users.id, opts.userId), eq(users.businessId, opts.businessId)));
  if (!row?.enabledAt) throw new ServiceError('validation_error', { proof: 'Two-factor sign-in is not on.' });
  const proof = await checkSecondFactor(db, opts.userId, opts.proof);
  if (!proof) throw new ServiceError('validation_error', { proof: 'That is neither a current code nor an unused recovery code.' });
  await inTransaction(db, async (tx) => {
    await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, opts.userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, opts.userId));
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: null,
      actor: opts.actor,
      action: 'user.two_factor_disabled',
      target: row.email,
      details: { proof },
    });
  });
}
