import 'server-only';
import type { z } from 'zod';
import { getDashboardSession } from './session';
import { markWrite } from './read-your-writes';
import { runActionAs, type ActionDef, type ActionResult } from '@/lib/actions/define-action';
import { readReplicaConfigured } from '@/lib/db/read-replica';

/** For 'use server' files: the signed-in session from the request's cookies. */
export async function runAction<S extends z.ZodType, T>(def: ActionDef<S, T>, input: unknown): Promise<ActionResult<T>> {
  const result = await runActionAs(def, await getDashboardSession(), input);
  // A cookie set by an action makes Next.js render the page again: only where a replica makes it worth it, and never for
  // the account's own actions (they change no page a replica serves; turning on two-factor ends the session whose page
  // must still show the recovery codes).
  if (result.ok && def.permission !== 'account' && readReplicaConfigured()) await markWrite();
  return result;
}
