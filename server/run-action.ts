import 'server-only';
import { revalidatePath } from 'next/cache';
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
  // The layout renders the menu's approvals count once; a client-side move to another page would keep the old one.
  if (result.ok && def.changesWaitingApprovals) revalidatePath('/', 'layout');
  return result;
}
