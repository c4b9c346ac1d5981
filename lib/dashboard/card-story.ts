import { sql, type SQL } from 'drizzle-orm';
import { findOwnCardAnyState } from '../cards/card-view';
import type { CardRow } from '../cards/card-view';
import { checkCardNumberParam } from '../cards/get-card';
import type { DbOrTx } from '../db/client';
import { cardNotFound } from '../errors';
import { groupedUnitsText } from '../money-text';
import { holdStatus, type TillHoldRow, type TillHoldStatus } from '../holds/till-hold-view';
import type { Mode } from '../validation';
import { dayIn } from '../time-zone';
import {
  actorLabel,
  approvalEvent,
  AUDIT_ACTIONS,
  MOVEMENT_LABELS,
  type PaymentState,
  paymentNoun,
  paymentState,
  type StoryPhrase,
  type StorySaid,
  tillHoldDetail,
  tillHoldSaid,
  tillHoldTitle,
} from './card-story-words';

/**
 * A card's whole story for the dashboard: its creation, every money movement with
 * the balance it left, its payment links and wallet charges (pending, paid, failed,
 * cancelled, with why), who disabled and enabled it and why, and its cancellation
 * with where the money went. Newest first, keyset-paged across all the sources.
 */

type StoryKind =
  | 'created'
  | 'movement'
  | 'payment_started'
  | 'payment_finished'
  | 'disabled'
  | 'enabled'
  | 'cancelled'
  | 'approval'
  | 'expired'
  | 'extended'
  | 'phone_corrected';

export interface StoryEvent {
  /** Unique on the page, and the cursor for "older" when it is the last one. */
  key: string;
  kind: StoryKind;
  at: string;
  /** What happened, in words staff can read out on the phone. */
  title: string;
  /** Why, or where the money went: null when the title says it all. */
  detail: string | null;
  /** The title and detail as catalogue phrases, for a dashboard in another language. */
  said: StorySaid;
  /** Who did it, as a person would say it: an email, an API key by its prefix, the provider. */
  actor: string | null;
  /** Signed: positive came onto the card, negative left it. Null when no money moved on the card. */
  amount: number | null;
  balanceAfter: number | null;
  /** For payment events: the amount asked for (the card's money does not move until it is paid). */
  requested: number | null;
  /** For payment events: the link's state now. */
  paymentState: PaymentState | null;
  reference: string | null;
  /** For the cancellation: what moved to the business account of the card's currency (null when not recorded). */
  movedToBusiness: number | null;
  /** For a till's hold (its placing line): the hold's state now. */
  holdState: TillHoldStatus | null;
}

export interface CardStoryOptions {
  businessId: number;
  mode: Mode;
  cardNumber: string;
  /** Cursor from a previous page's `older`: only events older than it. */
  before?: string;
  limit: number;
  /** The business's zone: an extension's old and new expiry are told as its calendar days. */
  timeZone?: string;
}

interface CardStatusWhy {
  /** Who last disabled the card, and why when they said: shown instead of an Enable button when it was the provider. */
  by: 'business' | 'provider';
  actor: string | null;
  reason: string | null;
  at: string | null;
}

export interface CardStory {
  card: CardRow;
  state: 'active' | 'disabled' | 'cancelled' | 'expired';
  /** Set when the card is disabled. */
  disabled: CardStatusWhy | null;
  /** Set when the card is cancelled: when, by whom, how much moved to the business account. */
  cancelled: { at: string; actor: string | null; movedToBusiness: number | null } | null;
  events: StoryEvent[];
  /** Cursor for older events, when there are more. */
  older: string | null;
  /** The business account of the card's currency and mode: where a cancelled card's money goes, and where a top-up may come from. */
  businessBalance: number;
  /** The part of the card's held money that tills hold (the rest waits for an approval). */
  tillHeld: number;
}

// Events of one instant are ordered by source: the cancellation is told after the movement it made.
const RANK = { created: 0, ledger: 1, paymentStarted: 2, paymentFinished: 3, audit: 4 } as const;
type Rank = (typeof RANK)[keyof typeof RANK];

const CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)_([0-4])_(\d{1,18})$/;

interface Cursor {
  at: string;
  rank: number;
  id: number;
}

export function parseStoryCursor(raw: string | undefined): Cursor | undefined {
  const m = raw ? CURSOR.exec(raw) : null;
  return m ? { at: m[1], rank: Number(m[2]), id: Number(m[3]) } : undefined;
}

const keyOf = (at: string, rank: Rank, id: number) => `${at}_${rank}_${id}`;

/** Rows of one source strictly older than the cursor in (at, rank, id) order. */
function olderThan(cursor: Cursor | undefined, rank: Rank, at: SQL, id: SQL): SQL {
  if (!cursor) return sql`TRUE`;
  if (rank < cursor.rank) return sql`${at} <= ${cursor.at}::timestamptz`;
  if (rank > cursor.rank) return sql`${at} < ${cursor.at}::timestamptz`;
  return sql`(${at}, ${id}) < (${cursor.at}::timestamptz, ${cursor.id})`;
}

/** The users and keys joins for one actor pair of columns, scoped to the business. */
const actorJoins = (alias: string, businessId: number) =>
  sql.raw(`
  LEFT JOIN users u ON ${alias}.actor_type = 'user' AND u.id::text = ${alias}.actor_id AND u.business_id = ${Number(businessId)}
  LEFT JOIN api_keys k ON ${alias}.actor_type = 'api_key' AND k.id::text = ${alias}.actor_id AND k.business_id = ${Number(businessId)}`);

const iso = (v: unknown) => new Date(v as string).toISOString();
const money = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function cardStory(db: DbOrTx, opts: CardStoryOptions): Promise<CardStory> {
  const localDay = (at: string) => dayIn(opts.timeZone ?? 'UTC', new Date(at));
  const card = await findOwnCardAnyState(db, opts.businessId, opts.mode, checkCardNumberParam(opts.cardNumber));
  if (!card) throw cardNotFound();
  const cursor = parseStoryCursor(opts.before);
  const take = opts.limit + 1;

  const [ledger, started, finished, audit, created, business, tillHeld] = await Promise.all([
    // Each source is cut to its page first and only then joined, so a page costs about its length.
    db.execute<Record<string, unknown>>(sql`
      SELECT e.id, e.created_at, t.kind, t.reference, t.business_id, e.amount, e.balance_after, t.actor_type, t.actor_id, u.email, k.prefix, p.type AS payment_type,
             h.status AS hold_status, h.outcome AS hold_outcome, h.captured_amount AS hold_captured
      FROM (SELECT e.* FROM ledger_entries e
            WHERE e.account_id = ${card.account_id} AND ${olderThan(cursor, RANK.ledger, sql`e.created_at`, sql`e.id`)}
            ORDER BY e.created_at DESC, e.id DESC LIMIT ${take}) e
      JOIN ledger_transactions t ON t.id = e.transaction_id
      LEFT JOIN payments p ON t.kind = 'payment' AND p.link_reference = t.reference AND p.business_id = ${opts.businessId}
      LEFT JOIN holds h ON t.kind IN ('hold', 'hold_release', 'card_redemption') AND h.reference = t.reference AND h.kind = 'till'
        AND h.business_id = ${opts.businessId}
      ${actorJoins('t', opts.businessId)}
      ORDER BY e.created_at DESC, e.id DESC`),
    db.execute<Record<string, unknown>>(sql`
      SELECT p.id, p.created_at, p.type, p.status, p.link_reference, p.amount, p.service_fee, p.actor_type, p.actor_id, u.email, k.prefix,
             p.status = 'success' AND NOT EXISTS (
               SELECT 1 FROM ledger_entries e WHERE e.transaction_id = p.transaction_id AND e.account_id = ${card.account_id}) AS paid_to_business
      FROM (SELECT p.* FROM payments p
            WHERE p.card_id = ${card.id} AND p.business_id = ${opts.businessId} AND p.mode = ${opts.mode}
              AND ${olderThan(cursor, RANK.paymentStarted, sql`p.created_at`, sql`p.id`)}
            ORDER BY p.created_at DESC, p.id DESC LIMIT ${take}) p
      ${actorJoins('p', opts.businessId)}
      ORDER BY p.created_at DESC, p.id DESC`),
    // A paid payment is told by the movement it made (or, paid into the business account, on the line that started it).
    db.execute<Record<string, unknown>>(sql`
      SELECT p.id, p.completed_at, p.type, p.status, p.link_reference, p.amount, p.failure_reason
      FROM payments p
      WHERE p.card_id = ${card.id} AND p.business_id = ${opts.businessId} AND p.mode = ${opts.mode}
        AND p.status IN ('failed', 'cancelled') AND p.completed_at IS NOT NULL
        AND ${olderThan(cursor, RANK.paymentFinished, sql`p.completed_at`, sql`p.id`)}
      ORDER BY p.completed_at DESC, p.id DESC
      LIMIT ${take}`),
    db.execute<Record<string, unknown>>(sql`
      SELECT l.id, l.created_at, l.action, l.details, l.actor_type, l.actor_id, u.email, k.prefix
      FROM (SELECT l.* FROM audit_log l
            WHERE l.business_id = ${opts.businessId} AND l.mode = ${opts.mode} AND l.target = ${card.card_number}
              AND l.action IN (${sql.join(
                AUDIT_ACTIONS.map((a) => sql`${a}`),
                sql`, `,
              )})
              AND ${olderThan(cursor, RANK.audit, sql`l.created_at`, sql`l.id`)}
            ORDER BY l.created_at DESC, l.id DESC LIMIT ${take}) l
      ${actorJoins('l', opts.businessId)}
      ORDER BY l.created_at DESC, l.id DESC`),
    db.execute<Record<string, unknown>>(sql`
      SELECT l.actor_type, l.actor_id, u.email, k.prefix
      FROM audit_log l
      ${actorJoins('l', opts.businessId)}
      WHERE l.business_id = ${opts.businessId} AND l.mode = ${opts.mode} AND l.target = ${card.card_number} AND l.action = 'card.created'
      ORDER BY l.created_at, l.id
      LIMIT 1`),
    db.execute<{ balance: number }>(sql`
      SELECT balance FROM ledger_accounts
      WHERE kind = 'business' AND business_id = ${opts.businessId} AND mode = ${opts.mode} AND currency = ${card.currency} AND name = ${`business:${opts.businessId}`}`),
    db.execute<{ held: number }>(
      sql`SELECT coalesce(sum(amount), 0)::bigint AS held FROM holds WHERE card_id = ${card.id} AND kind = 'till' AND status = 'open'`,
    ),
  ]);

  const events: (StoryEvent & { rank: Rank; id: number })[] = [];
  const push = (rank: Rank, id: number, e: Pick<StoryEvent, 'kind' | 'at' | 'title' | 'detail' | 'actor' | 'said'> & Partial<StoryEvent>) =>
    events.push({
      amount: null,
      balanceAfter: null,
      requested: null,
      paymentState: null,
      reference: null,
      movedToBusiness: null,
      holdState: null,
      ...e,
      key: keyOf(e.at, rank, id),
      rank,
      id,
    });

  const createdAt = iso(card.created_at);
  const createdRow = created.rows[0];
  if (!cursor || createdAt < cursor.at || (createdAt === cursor.at && RANK.created < cursor.rank)) {
    push(RANK.created, 0, {
      kind: 'created',
      at: createdAt,
      title: 'Card created',
      detail: `For ${card.phone_number}, in ${card.currency}.`,
      said: { title: { key: 'created' }, detail: [{ key: 'createdFor', values: { phone: card.phone_number, currency: card.currency } }] },
      actor: createdRow ? actorLabel(createdRow) : null,
    });
  }

  for (const r of ledger.rows) {
    const kind = String(r.kind);
    const till = r.hold_status ? holdStatus({ status: r.hold_status as TillHoldRow['status'], outcome: r.hold_outcome as TillHoldRow['outcome'] }) : null;
    const title = till
      ? tillHoldTitle(kind, till)
      : kind === 'payment'
        ? `${paymentNoun(r.payment_type)} paid`
        : (MOVEMENT_LABELS[kind] ?? kind.replaceAll('_', ' '));
    const titleSaid: StoryPhrase = till
      ? tillHoldSaid(kind, till)
      : kind === 'payment'
        ? { key: r.payment_type === 'hosted' ? 'paid.hosted' : 'paid.wallet' }
        : kind in MOVEMENT_LABELS
          ? { key: `movement.${kind}` }
          : { key: 'text', values: { text: kind.replaceAll('_', ' ') } };
    push(RANK.ledger, Number(r.id), {
      kind: 'movement',
      at: iso(r.created_at),
      title,
      detail: till && kind === 'hold' ? tillHoldDetail(till, `${card.currency} ${groupedUnitsText(Number(r.hold_captured ?? 0))}`) : null,
      said: {
        title: titleSaid,
        detail: till && kind === 'hold' ? [{ key: `till.detail.${till}`, values: { captured: { money: Number(r.hold_captured ?? 0) } } }] : [],
      },
      holdState: till && kind === 'hold' ? till : null,
      // A card-to-card payout from another business's card: its people and keys are not ours to name.
      actor: r.business_id !== null && Number(r.business_id) !== opts.businessId ? 'another business' : actorLabel(r),
      amount: Number(r.amount),
      balanceAfter: Number(r.balance_after),
      // A cancellation's reference is the card's own number: nothing to add.
      reference: r.reference && r.reference !== card.card_number ? String(r.reference) : null,
      paymentState: kind === 'payment' ? 'paid' : null,
    });
  }

  for (const r of started.rows) {
    const fee = Number(r.service_fee);
    push(RANK.paymentStarted, Number(r.id), {
      kind: 'payment_started',
      at: iso(r.created_at),
      title: r.type === 'hosted' ? 'Payment link created' : 'Wallet charge started',
      detail: r.paid_to_business
        ? 'Paid while the card could not take money (disabled or cancelled), so the money went to the business account.'
        : fee > 0
          ? 'The customer also pays a service fee.'
          : null,
      said: {
        title: { key: r.type === 'hosted' ? 'started.hosted' : 'started.wallet' },
        detail: r.paid_to_business ? [{ key: 'paidToBusiness' }] : fee > 0 ? [{ key: 'feeToo' }] : [],
      },
      actor: actorLabel(r),
      requested: Number(r.amount),
      paymentState: paymentState(r.status),
      reference: String(r.link_reference),
    });
  }

  for (const r of finished.rows) {
    const state = paymentState(r.status);
    const noun = paymentNoun(r.type);
    const reason = (r.failure_reason as string | null) ?? null;
    push(RANK.paymentFinished, Number(r.id), {
      kind: 'payment_finished',
      at: iso(r.completed_at),
      title: state === 'failed' ? `${noun} failed` : `${noun} cancelled`,
      detail: reason ?? (state === 'failed' ? 'The payment did not go through; no reason was given.' : 'The customer cancelled before paying.'),
      said: {
        title: { key: `finished.${r.type === 'hosted' ? 'hosted' : 'wallet'}.${state === 'failed' ? 'failed' : 'cancelled'}` },
        detail: [reason ? { key: 'text', values: { text: reason } } : { key: state === 'failed' ? 'noReason' : 'customerCancelled' }],
      },
      actor: null,
      requested: Number(r.amount),
      paymentState: state,
      reference: String(r.link_reference),
    });
  }

  let cancelled: CardStory['cancelled'] = null;
  for (const r of audit.rows) {
    const action = String(r.action);
    const details = (r.details ?? {}) as Record<string, unknown>;
    const reason = typeof details.reason === 'string' && details.reason ? details.reason : null;
    const actor = actorLabel(r);
    const at = iso(r.created_at);
    if (action.startsWith('approval.')) {
      push(RANK.audit, Number(r.id), {
        kind: 'approval',
        at,
        actor: actor ?? (r.actor_type === 'system' ? 'the service' : null),
        ...approvalEvent(action, details),
      });
      continue;
    }
    if (action === 'card.cancelled') {
      const moved = money(details.moved_to_business_account);
      push(RANK.audit, Number(r.id), {
        kind: 'cancelled',
        at,
        title: 'Card cancelled',
        detail: moved === 0 ? `It held no money, so nothing moved to the business's ${card.currency} account.` : null,
        said: { title: { key: 'cancelled' }, detail: moved === 0 ? [{ key: 'cancelledEmpty', values: { currency: card.currency } }] : [] },
        actor,
        movedToBusiness: moved,
      });
      cancelled = { at, actor, movedToBusiness: moved };
      continue;
    }
    if (action === 'card.expired') {
      const moved = money(details.moved_to_breakage);
      push(RANK.audit, Number(r.id), {
        kind: 'expired',
        at,
        title: 'Card expired',
        detail:
          moved === null || moved === 0
            ? 'It held no money when it expired. The card is read-only.'
            : `Its balance of ${card.currency} ${groupedUnitsText(moved)} became breakage. The card is read-only.`,
        said: {
          title: { key: 'expired' },
          detail: [moved === null || moved === 0 ? { key: 'expiredEmpty' } : { key: 'expiredBreakage', values: { amount: { money: moved } } }],
        },
        actor: 'the service',
      });
      continue;
    }
    if (action === 'card.expiry_extended') {
      push(RANK.audit, Number(r.id), {
        kind: 'extended',
        at,
        title: 'Expiry extended',
        detail: `From ${typeof details.from === 'string' ? localDay(details.from) : 'its old date'} to ${typeof details.to === 'string' ? localDay(details.to) : 'a later date'}.${reason ? ` Reason: ${reason}` : ''}`,
        said: {
          title: { key: 'extended' },
          detail: [
            {
              key: 'extendedFromTo',
              values: {
                from: typeof details.from === 'string' ? { day: localDay(details.from) } : { term: 'oldDate' },
                to: typeof details.to === 'string' ? { day: localDay(details.to) } : { term: 'laterDate' },
              },
            },
            ...(reason ? [{ key: 'reason', values: { reason } }] : []),
          ],
        },
        actor,
      });
      continue;
    }
    if (action === 'card.phone_corrected') {
      push(RANK.audit, Number(r.id), {
        kind: 'phone_corrected',
        at,
        title: 'Sent to another number',
        detail: `From ${typeof details.from === 'string' ? details.from : 'the old number'} to ${typeof details.to === 'string' ? details.to : 'a corrected one'}; its old link stopped working.`,
        said: {
          title: { key: 'phoneCorrected' },
          detail: [
            {
              key: 'phoneCorrectedFromTo',
              values: {
                from: typeof details.from === 'string' ? details.from : { term: 'oldNumber' },
                to: typeof details.to === 'string' ? details.to : { term: 'correctedNumber' },
              },
            },
          ],
        },
        actor,
      });
      continue;
    }
    const disabling = action.endsWith('disabled');
    const byProvider = action.startsWith('card.provider_');
    push(RANK.audit, Number(r.id), {
      kind: disabling ? 'disabled' : 'enabled',
      at,
      title: `${disabling ? 'Disabled' : 'Enabled'}${byProvider ? ' by the provider' : ''}`,
      detail: reason ? `Reason: ${reason}` : null,
      said: {
        title: { key: `${disabling ? 'disabled' : 'enabled'}${byProvider ? 'ByProvider' : ''}` },
        detail: reason ? [{ key: 'reason', values: { reason } }] : [],
      },
      actor,
    });
  }

  events.sort((a, b) => (a.at === b.at ? (a.rank === b.rank ? b.id - a.id : b.rank - a.rank) : a.at < b.at ? 1 : -1));
  const page = events.slice(0, opts.limit);
  const state = card.cancelled_at ? 'cancelled' : card.expired_at ? 'expired' : card.status === 1 ? 'active' : 'disabled';
  const [disabled, cancelledNow] = await Promise.all([
    state === 'disabled' ? lastDisable(db, opts, card) : null,
    state === 'cancelled' && !cancelled ? lastCancellation(db, opts, card) : cancelled,
  ]);
  return {
    card,
    state,
    disabled,
    cancelled: state === 'cancelled' ? (cancelledNow ?? { at: iso(card.cancelled_at), actor: null, movedToBusiness: null }) : null,
    events: page.map(({ rank: _rank, id: _id, ...e }) => e),
    older: events.length > opts.limit ? page[page.length - 1].key : null,
    businessBalance: Number(business.rows[0]?.balance ?? 0),
    tillHeld: Number(tillHeld.rows[0].held),
  };
}

async function lastDisable(db: DbOrTx, opts: CardStoryOptions, card: CardRow): Promise<CardStatusWhy> {
  const by = card.disabled_by === 'provider' ? 'provider' : 'business';
  const action = by === 'provider' ? 'card.provider_disabled' : 'card.disabled';
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT l.created_at, l.details, l.actor_type, l.actor_id, u.email, k.prefix
    FROM audit_log l
    ${actorJoins('l', opts.businessId)}
    WHERE l.business_id = ${opts.businessId} AND l.mode = ${opts.mode} AND l.target = ${card.card_number} AND l.action = ${action}
    ORDER BY l.created_at DESC, l.id DESC
    LIMIT 1`);
  const r = rows[0];
  if (!r) return { by, actor: by === 'provider' ? 'the provider' : null, reason: null, at: null };
  const details = (r.details ?? {}) as Record<string, unknown>;
  return {
    by,
    actor: actorLabel(r),
    reason: typeof details.reason === 'string' && details.reason ? details.reason : null,
    at: iso(r.created_at),
  };
}

async function lastCancellation(db: DbOrTx, opts: CardStoryOptions, card: CardRow): Promise<CardStory['cancelled']> {
  const { rows } = await db.execute<Record<string, unknown>>(sql`
    SELECT l.created_at, l.details, l.actor_type, l.actor_id, u.email, k.prefix
    FROM audit_log l
    ${actorJoins('l', opts.businessId)}
    WHERE l.business_id = ${opts.businessId} AND l.mode = ${opts.mode} AND l.target = ${card.card_number} AND l.action = 'card.cancelled'
    ORDER BY l.created_at DESC, l.id DESC
    LIMIT 1`);
  const r = rows[0];
  if (!r) return null;
  const details = (r.details ?? {}) as Record<string, unknown>;
  return { at: iso(r.created_at), actor: actorLabel(r), movedToBusiness: money(details.moved_to_business_account) };
}
