import type { DbOrTx } from './db/client';
import { auditLog } from './db/schema';
import type { Actor } from './actor';

export interface RecordAuditOptions {
  businessId: number | null;
  mode: string | null;
  actor: Actor;
  action: string;
  target?: string | null;
  details?: Record<string, unknown>;
  /** When it happened, if not now: an outcome learnt later but stamped at its start. */
  at?: Date;
}

/** Who did what, written in the same transaction as the change it describes. */
export async function recordAudit(tx: DbOrTx, opts: RecordAuditOptions): Promise<void> {
  await tx.insert(auditLog).values({
    businessId: opts.businessId,
    mode: opts.mode,
    actorType: opts.actor.type,
    actorId: opts.actor.id,
    action: opts.action,
    target: opts.target ?? null,
    details: opts.details ?? null,
    ...(opts.at ? { createdAt: opts.at } : {}),
  });
}
