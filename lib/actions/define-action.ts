import type { z } from 'zod';
import { getDb, type Db } from '../db/client';
import { type ErrorCode, ServiceError, type FieldErrors } from '../errors';
import { can, type Permission } from '../auth/permissions';
import type { DashboardSession } from '../auth/session-types';
import { parseInput } from '../validation';
import { logger } from '../observability/logger';

/**
 * A refused action: the core's error code (typed, for code to branch on), the
 * sentence to show, and where it belongs: `field` for a core refusal that
 * concerns one form field, `fieldErrors` for the form's own validation.
 */
export interface ActionFailure {
  ok: false;
  code: ErrorCode;
  message: string;
  field?: string;
  fieldErrors?: FieldErrors;
}

export type ActionResult<T> = { ok: true; data: T } | ActionFailure;

/**
 * The request field a core refusal concerns when the error does not say so
 * itself. Form fields carry the API's field names, so the field is the form's.
 */
const FIELD_OF: Partial<Record<ErrorCode, string>> = {
  invalid_card_number: 'card_number',
  card_not_found: 'card_number',
  card_disabled: 'card_number',
  destination_card_not_found: 'destination_card_number',
  destination_card_disabled: 'destination_card_number',
  same_card: 'destination_card_number',
  currency_mismatch: 'destination_card_number',
  insufficient_balance: 'amount',
  amount_below_fee: 'amount',
  invalid_charge_payer: 'charge_payer',
  invalid_bank_slug: 'bank_slug',
  duplicate_merchant_reference: 'merchant_reference',
  invalid_phone_number: 'phone_number',
};

/** The failure a form receives for a core error: its code, its message, and its field when it has one. */
export function actionFailure(err: ServiceError): ActionFailure {
  if (typeof err.detail !== 'string') return { ok: false, code: err.code, message: err.title, fieldErrors: err.detail };
  const field = err.field ?? FIELD_OF[err.code];
  return { ok: false, code: err.code, message: `${err.title}: ${err.detail}`, ...(field && { field }) };
}

export interface ActionDef<S extends z.ZodType, T> {
  name: string;
  permission: Permission;
  schema: S;
  handler: (ctx: { db: Db; session: DashboardSession; input: z.output<S> }) => Promise<T>;
  /** Open to a user who must still set up two-factor sign-in (its own set-up, their password); every other action refuses them. */
  beforeTwoFactor?: boolean;
  /** It may add or decide a waiting approval: the menu's count, rendered once by the layout, is rendered again. */
  changesWaitingApprovals?: boolean;
}

/** Registers a dashboard action: the permission it needs, the form's zod schema, and one core call. */
export function defineAction<S extends z.ZodType, T>(def: ActionDef<S, T>): ActionDef<S, T> {
  ALL_ACTIONS.push(def as unknown as ActionDef<z.ZodType, unknown>);
  return def;
}

export const twoFactorFirst = () => new ServiceError('forbidden', 'Your business requires two-factor sign-in: set it up on your account page first.');

/** Every action defined so far: the role-refusal test walks this list so none can be forgotten. */
export const ALL_ACTIONS: ActionDef<z.ZodType, unknown>[] = [];

/**
 * Runs an action for a session: role checked on the server on every call,
 * input parsed with the form's schema, typed errors mapped for the form (a
 * field's error on that field, anything else as a message).
 */
export async function runActionAs<S extends z.ZodType, T>(def: ActionDef<S, T>, session: DashboardSession | null, input: unknown): Promise<ActionResult<T>> {
  try {
    if (!session) throw new ServiceError('unauthorized', 'Your session has ended; sign in again.');
    if (session.mustSetUpTwoFactor && !def.beforeTwoFactor) throw twoFactorFirst();
    if (!can(session.role, def.permission)) throw new ServiceError('forbidden', 'Your role does not allow this.');
    return { ok: true, data: await def.handler({ db: getDb(), session, input: parseInput(def.schema, input) }) };
  } catch (err) {
    if (err instanceof ServiceError) return actionFailure(err);
    logger.error({ err }, `dashboard action ${def.name} failed`);
    return { ok: false, code: 'internal', message: 'Something went wrong on our side; nothing was changed.' };
  }
}
