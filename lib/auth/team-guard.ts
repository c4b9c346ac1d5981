import { sql } from 'drizzle-orm';
import type { Tx } from '../db/client';
import { ServiceError } from '../errors';

export interface TeamMember {
  id: number;
  email: string;
  role: string;
}

/**
 * Locks every user row of the business, so two owners demoting or removing
 * each other at once cannot leave it without an owner, and returns the target.
 */
export async function lockTeamMember(tx: Tx, businessId: number, userId: number): Promise<{ target: TeamMember; owners: number }> {
  const { rows } = await tx.execute<{ id: number; email: string; role: string }>(sql`
    SELECT id, email, role FROM users WHERE business_id = ${businessId} ORDER BY id FOR UPDATE`);
  const target = rows.find((r) => Number(r.id) === userId);
  if (!target) throw new ServiceError('user_not_found', 'No user of this business has this id.');
  return { target: { ...target, id: Number(target.id) }, owners: rows.filter((r) => r.role === 'owner').length };
}
