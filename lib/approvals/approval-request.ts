import type { Currency, Mode } from '../validation';

/** What can wait for a second person; each kind has its operation in approval-operations.ts. */
const APPROVAL_KINDS = ['payout', 'adjustment', 'refund', 'upload'] as const;
export type ApprovalKind = (typeof APPROVAL_KINDS)[number];

export type ApprovalStatus = 'awaiting_approval' | 'approved' | 'rejected' | 'expired' | 'failed';

/** How long a request waits before its money is released by the expiry sweep. */
export const APPROVAL_TTL_MS = 72 * 60 * 60 * 1000;

/** A stored request as the core reads it (snake_case, as selected). */
export interface ApprovalRow {
  id: number;
  reference: string;
  business_id: number;
  mode: Mode;
  kind: ApprovalKind;
  /** Null for an upload in several currencies. */
  currency: Currency | null;
  amount: number;
  /** Null for an upload: its money is held on each source card, by the holds whose purpose is this request's reference. */
  card_id: number | null;
  card_number: string | null;
  options: Record<string, unknown>;
  maker_user_id: number;
  reason_code: string | null;
  note: string | null;
  status: ApprovalStatus;
  decided_by: number | null;
  decided_at: Date | null;
  decision_note: string | null;
  failure_reason: string | null;
  expires_at: Date;
  result_reference: string | null;
  hold_id: number | null;
  created_at: Date;
}

/** What a maker is told once the request waits. */
export interface ApprovalRequested {
  reference: string;
  kind: ApprovalKind;
  currency: Currency;
  amount: number;
  held: number;
  expiresAt: string;
}
