import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Mode } from '../validation';

export const AUDIT_ACTOR_TYPES = ['user', 'api_key', 'admin', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];
/** Action families for the filter: an action is `<family>.<verb>`. */
export const AUDIT_ACTION_FAMILIES = ['card', 'payout', 'transfer', 'payment', 'business', 'approval', 'upload', 'api_key', 'webhook', 'user'] as const;

export interface ListAuditLogOptions {
  businessId: number;
  mode: Mode;
  limit: number;
  actorType?: AuditActorType;
  /** An action family (`payout`) or one exact action (`payout.success`). */
  action?: string;
  /** Rows older than this cursor (the "older" link). */
  before?: string;
  /** Rows newer than this cursor (the "newer" link). */
  after?: string;
}

export interface AuditEntry {
  id: number;
  createdAt: string;
  actorType: string;
  actorLabel: string;
  action: string;
  target: string | null;
  mode: string | null;
  /** What was recorded with the action: amounts, old and new values. */
  details: Record<string, unknown>;
  /** The payout, payment or card the action is about, as it is now (amount, currency, where the money went), when there is one. */
  subject: AuditSubject | null;
}

export interface AuditSubject {
  kind: 'payout' | 'payment' | 'card';
  amount: number | null;
  currency: string;
  payoutType?: string;
  isLedgerTopup?: boolean;
  bankSlug?: string | null;
  accountNumber?: string | null;
  sourceCard?: string | null;
  destinationCard?: string | null;
  /** The receiving business's name, for a payout to another business. */
  merchantName?: string | null;
  paymentType?: string;
  paymentMethod?: string | null;
  cardNumber?: string | null;
  failureReason?: string | null;
}

export interface AuditLogPage {
  items: AuditEntry[];
  /** Cursor for the newer page, null on the newest. */
  newer: string | null;
  /** Cursor for the older page, null on the oldest. */
  older: string | null;
}

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_(\d{1,18})$/;
const cursorOf = (e: AuditEntry) => `${e.createdAt}_${e.id}`;

export function parseAuditCursor(raw: string | undefined): { at: string; id: number } | undefined {
  const m = raw ? CURSOR.exec(raw) : null;
  return m ? { at: m[1], id: Number(m[2]) } : undefined;
}

/** The page's actor and action filters, each as an AND clause on audit_log l. */
function whoAndWhat(o: Pick<ListAuditLogOptions, 'actorType' | 'action'>): SQL[] {
  const filters: SQL[] = [];
  if (o.actorType) filters.push(sql`AND l.actor_type = ${o.actorType}`);
  if (o.action) filters.push(o.action.includes('.') ? sql`AND l.action = ${o.action}` : sql`AND l.action LIKE ${`${o.action.replace(/[\\%_]/g, '\\$&')}.%`}`);
  return filters;
}

/** A count of the log stops here: the page then says "more than 10,000". */
export const AUDIT_COUNT_CAP = 10_000;

/** How many entries the filters match in this mode and business-wide, up to AUDIT_COUNT_CAP + 1. */
export async function countAuditLog(db: Db, o: Pick<ListAuditLogOptions, 'businessId' | 'mode' | 'actorType' | 'action'>): Promise<number> {
  const { rows } = await db.execute<{ n: number }>(sql`
    SELECT count(*)::int AS n FROM (SELECT 1 FROM audit_log l WHERE l.business_id = ${o.businessId} AND (l.mode = ${o.mode} OR l.mode IS NULL)
      ${sql.join(whoAndWhat(o), sql` `)} LIMIT ${AUDIT_COUNT_CAP + 1}) m`);
  return Number(rows[0].n);
}

/**
 * Who did what in one mode, plus the business-wide rows (team changes have no
 * mode), newest first. Paged by a (created_at, id) cursor and each side walks
 * the audit index on its own before the two are merged, so any page costs
 * about limit rows whatever the table's size.
 */
export async function listAuditLog(db: Db, o: ListAuditLogOptions): Promise<AuditLogPage> {
  const after = parseAuditCursor(o.after);
  const before = after ? undefined : parseAuditCursor(o.before);
  const filters = whoAndWhat(o);
  if (before) filters.push(sql`AND (l.created_at, l.id) < (${before.at}::timestamptz, ${before.id})`);
  if (after) filters.push(sql`AND (l.created_at, l.id) > (${after.at}::timestamptz, ${after.id})`);
  const where = sql.join(filters, sql` `);
  const dir = after ? sql`ASC` : sql`DESC`;
  const side = (mode: SQL) => sql`(SELECT l.* FROM audit_log l WHERE l.business_id = ${o.businessId} AND ${mode} ${where}
    ORDER BY l.created_at ${dir}, l.id ${dir} LIMIT ${o.limit + 1})`;
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT l.id, l.created_at, l.actor_type, l.actor_id, l.action, l.target, l.mode, l.details, u.email, k.prefix, subj.s AS subject
    FROM (${side(sql`l.mode = ${o.mode}`)} UNION ALL ${side(sql`l.mode IS NULL`)}) l
    LEFT JOIN users u ON l.actor_type = 'user' AND u.id::text = l.actor_id AND u.business_id = ${o.businessId}
    LEFT JOIN api_keys k ON l.actor_type = 'api_key' AND k.id::text = l.actor_id AND k.business_id = ${o.businessId}
    LEFT JOIN LATERAL (
      SELECT json_build_object('kind', 'payout', 'amount', p.amount, 'currency', p.currency, 'payoutType', p.payout_type,
        'isLedgerTopup', p.is_ledger_topup, 'bankSlug', p.bank_slug, 'accountNumber', p.account_number, 'sourceCard', p.source_card_number,
        'destinationCard', p.destination_card_number, 'merchantName', b.name, 'failureReason', p.failure_reason) AS s
      FROM payouts p LEFT JOIN businesses b ON b.merchant_id = p.merchant_id
      WHERE (l.action LIKE 'payout.%' OR l.action LIKE 'transfer.%') AND p.reference = l.target AND p.business_id = ${o.businessId}
      UNION ALL
      SELECT json_build_object('kind', 'payment', 'amount', p.amount, 'currency', p.currency, 'paymentType', p.type,
        'paymentMethod', p.payment_method, 'cardNumber', p.card_number, 'failureReason', p.failure_reason)
      FROM payments p WHERE l.action LIKE 'payment.%' AND p.link_reference = l.target AND p.business_id = ${o.businessId}
      UNION ALL
      SELECT json_build_object('kind', 'card', 'amount', NULL, 'currency', c.currency, 'cardNumber', c.card_number)
      FROM cards c WHERE l.action LIKE 'card.%' AND c.card_number = l.target AND c.business_id = ${o.businessId}
      LIMIT 1
    ) subj ON true
    ORDER BY l.created_at ${dir}, l.id ${dir}
    LIMIT ${o.limit + 1}`);
  const more = rows.length > o.limit;
  const page = rows.slice(0, o.limit).map(toEntry);
  if (after) page.reverse();
  return {
    items: page,
    newer: page.length && (after ? more : !!before) ? cursorOf(page[0]) : null,
    older: page.length && (after ? true : more) ? cursorOf(page[page.length - 1]) : null,
  };
}

function toEntry(r: Record<string, unknown>): AuditEntry {
  return {
    id: Number(r.id),
    createdAt: new Date(r.created_at as string).toISOString(),
    actorType: String(r.actor_type),
    actorLabel: actorLabel(r),
    action: String(r.action),
    target: (r.target as string | null) ?? null,
    mode: (r.mode as string | null) ?? null,
    details: r.details && typeof r.details === 'object' ? (r.details as Record<string, unknown>) : {},
    subject: (r.subject as AuditSubject | null) ?? null,
  };
}

function actorLabel(r: Record<string, unknown>): string {
  switch (r.actor_type) {
    case 'user':
      return r.email ? String(r.email) : `Removed user #${r.actor_id}`;
    case 'api_key':
      return r.prefix ? `API key ${r.prefix}…` : `API key #${r.actor_id}`;
    case 'admin':
      return 'Provider back office';
    default:
      return 'The service, automatically';
  }
}
