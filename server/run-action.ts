import 'server-only';
import type { z } from 'zod';
import { getDashboardSession } from './session';
import { runActionAs, type ActionDef, type ActionResult } from '@/lib/actions/define-action';

/** For 'use server' files: the signed-in session from the request's cookies. */
export async function runAction<S extends z.ZodType, T>(def: ActionDef<S, T>, input: unknown): Promise<ActionResult<T>> {
  return runActionAs(def, await getDashboardSession(), input);
}
