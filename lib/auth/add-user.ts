import { recordAudit } from '../audit';
import type { Db } from '../db/client';
import { inTransaction } from '../db/transaction';
import type { Actor } from '../actor';
import { createUser } from './users';

/** A user added by an owner in the dashboard, with the audit row of who added them. */
export async function addUser(db: Db, businessId: number, actor: Actor, input: unknown) {
  return inTransaction(db, async (tx) => {
    const user = await createUser(tx, businessId, input);
    await recordAudit(tx, { businessId, mode: null, actor, action: 'user.added', target: user.email, details: { role: user.role } });
    return user;
  });
}
