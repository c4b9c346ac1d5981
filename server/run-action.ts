import 'server-only';
import type { z } from 'zod';
import { getDashboardSession } from './session';
import { markWrite } from './read-your-writes';
import { runActionAs, type ActionDef, type ActionResult } from '@/lib/actions/define-action';

/** For 'use server' files: the signed-in session from the request's cookies. */
export async function runAction<S extends z.ZodType, T>(def: ActionDef<S, T>, input: unknown): Promise<ActionResult<T>> {
  const result = await runActionAs(def, await getDashboardSession(), input);
  if (result.ok) await markWrite();
  return result;
}
