import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { Currency, Mode } from '../validation';
import type { ApprovalKind, ApprovalStatus } from './approval-request';

export interface ApprovalListItem {
  reference: string;
  kind: ApprovalKind;
  /** Withdrawn: rejected by the teammate who asked (stored as rejected, as its money is released the same way). */
  status: ApprovalStatus | 'withdrawn';
  /** Null for an upload in several currencies (its page shows the totals). */
  currency: Currency | null;
  amount: number;
  held: number;
  /** Null for an upload: its source cards are the file's. */
  cardNumber: string | null;
  /** An upload's reference: its page shows the rows. */
  uploadReference: string | null;
  /** What is asked, for the page to say in the reader's language: a message key and its arguments (a payout's destination, an adjustment's direction, ...). */
  subject: ApprovalSubject;
  makerUserId: number;
  /** The asker's email; null once they are removed from the team. */
  maker: string | null;
  reasonCode: string | null;
  note: string | null;
  createdAt: string;
  expiresAt: string;
  decidedBy: string | null;
  decidedAt: string | null;
  decisionNote: string | null;
  failureReason: string | null;
  resultReference: string | null;
}

interface ApprovalSubject {
  key: 'cardToCard' | 'b2b' | 'bank' | 'adjustmentAdd' | 'adjustmentTake' | 'refund' | 'upload';
  args: Record<string, string | number>;
}

export interface ListApprovalsOptions {
  businessId: number;
  mode: Mode;
  /** Waiting ones (oldest first, the next to expire on top), decided ones (newest first), or the one with this reference. */
  view: 'waiting' | 'decided' | { reference: string };
  limit: number;
}

function subjectOf(kind: string, o: Record<string, unknown>): ApprovalSubject {
  if (kind === 'adjustment') return { key: o.direction === 'increase' ? 'adjustmentAdd' : 'adjustmentTake', args: {} };
  if (kind === 'refund') return { key: 'refund', args: { payment: String(o.reference) } };
  if (kind === 'upload') {
    const totals = Object.values((o.totals ?? {}) as Record<string, { rows: number }>);
    return { key: 'upload', args: { file: String(o.file_name), rows: totals.reduce((n, t) => n + t.rows, 0) } };
  }
  if (o.destination_card_number) return { key: 'cardToCard', args: { last4: String(o.destination_card_number).slice(-4) } };
  if (o.merchant_id) return { key: 'b2b', args: { merchant: String(o.merchant_id) } };
  return {
    key: 'bank',
    args: { name: String(o.account_name), bank: String(o.bank_slug), last4: String(o.account_number).slice(-4) },
  };
}

/** The approval queue or its history, scoped to the business and mode, with who asked and who decided by email. */
export async function listApprovals(db: DbOrTx, opts: ListApprovalsOptions): Promise<ApprovalListItem[]> {
  const waiting = opts.view === 'waiting';
  const which =
    typeof opts.view === 'object'
      ? sql`r.reference = ${opts.view.reference}`
      : waiting
        ? sql`r.status = 'awaiting_approval'`
        : sql`r.status <> 'awaiting_approval'`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT r.*, m.email AS maker_email, d.email AS decider_email,
      -- An upload holds on each source card (holds named by its reference); any other request its one hold.
      coalesce((SELECT h.amount FROM holds h WHERE h.id = r.hold_id),
        (SELECT sum(h.amount) FROM holds h WHERE h.business_id = r.business_id AND h.mode = r.mode AND h.purpose = r.reference), 0) AS held
    FROM approval_requests r
    LEFT JOIN users m ON m.id = r.maker_user_id AND m.business_id = r.business_id
    LEFT JOIN users d ON d.id = r.decided_by AND d.business_id = r.business_id
    WHERE r.business_id = ${opts.businessId} AND r.mode = ${opts.mode}
      AND ${which}
    ORDER BY ${waiting ? sql`r.created_at ASC, r.id ASC` : sql`coalesce(r.decided_at, r.created_at) DESC, r.id DESC`}
    LIMIT ${opts.limit}`);
  const when = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
  return rows.map((r) => ({
    reference: String(r.reference),
    kind: r.kind as ApprovalKind,
    status: r.status === 'rejected' && r.decided_by !== null && Number(r.decided_by) === Number(r.maker_user_id) ? 'withdrawn' : (r.status as ApprovalStatus),
    currency: (r.currency as Currency | null) ?? null,
    amount: Number(r.amount),
    held: Number(r.held),
    cardNumber: (r.card_number as string | null) ?? null,
    uploadReference: r.kind === 'upload' ? String((r.options as Record<string, unknown>).upload_reference) : null,
    subject: subjectOf(String(r.kind), (r.options ?? {}) as Record<string, unknown>),
    makerUserId: Number(r.maker_user_id),
    maker: r.maker_email ? String(r.maker_email) : null,
    reasonCode: (r.reason_code as string | null) ?? null,
    note: (r.note as string | null) ?? null,
    createdAt: when(r.created_at)!,
    expiresAt: when(r.expires_at)!,
    decidedBy:
      r.decided_by === null ? (r.status === 'expired' ? 'expired after 72 hours' : null) : r.decider_email ? String(r.decider_email) : 'a removed team member',
    decidedAt: when(r.decided_at),
    decisionNote: (r.decision_note as string | null) ?? null,
    failureReason: (r.failure_reason as string | null) ?? null,
    resultReference: (r.result_reference as string | null) ?? null,
  }));
}

/** How many requests of the business and mode wait for a decision: the number beside Approvals in the menu. */
export async function countWaitingApprovals(db: DbOrTx, opts: { businessId: number; mode: Mode }): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM approval_requests
    WHERE business_id = ${opts.businessId} AND mode = ${opts.mode} AND status = 'awaiting_approval'`);
  return Number(rows[0]?.n ?? 0);
}
