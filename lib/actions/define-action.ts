import type { z } from 'zod';
import { getDb, type Db } from '../db/client';
import { ServiceError, type FieldErrors } from '../errors';
import { can, type Permission } from '../auth/permissions';
import type { DashboardSession } from '../auth/session-types';
import { parseInput } from '../validation';

export type ActionResult<T> = { ok: true; data: T } | { ok: false; message: string; fieldErrors?: FieldErrors };

export interface ActionDef<S extends z.ZodType, T> {
  name: string;
  permission: Permission;
  schema: S;
  handler: (ctx: { db: Db; session: DashboardSession; input: z.output<S> }) => Promise<T>;
}

/** Registers a dashboard action: the permission it needs, the form's zod schema, and one core call. */
export function defineAction<S extends z.ZodType, T>(def: ActionDef<S, T>): ActionDef<S, T> {
  ALL_ACTIONS.push(def as unknown as ActionDef<z.ZodType, unknown>);
  return def;
}

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
    if (!can(session.role, def.permission)) throw new ServiceError('forbidden', 'Your role does not allow this.');
    return { ok: true, data: await def.handler({ db: getDb(), session, input: parseInput(def.schema, input) }) };
  } catch (err) {
    if (err instanceof ServiceError) {
      return typeof err.detail === 'string'
        ? { ok: false, message: `${err.title}: ${err.detail}` }
        : { ok: false, message: err.title, fieldErrors: err.detail };
    }
    console.error(`dashboard action ${def.name} failed`, err);
    return { ok: false, message: 'Something went wrong on our side; nothing was changed.' };
  }
}
