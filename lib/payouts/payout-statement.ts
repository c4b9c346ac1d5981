import { sql, type SQL } from 'drizzle-orm';
import { counterIncrement } from '../db/list-counters';
import { compiledOnce } from '../db/prepared';
import { enqueueJobsSql } from '../jobs/job-queue';
import { apiKeyUsable } from '../keys/api-keys';
import { postingCtes, postingVerdict, type PostingVerdict } from '../ledger/post-transaction';
import { payoutLimitsCte, payoutLimitVerdict } from '../limits/limit-sql';
import type { LimitExceeded } from '../limits/limit-refusal';
import { queueMessagesCtes } from '../messages/queue-message';
import { eventCtes } from '../webhooks/outbox';
import { PAYOUT_DAY_LIMIT, payoutGuards } from './payout-guard-list';

/**
 * The payout statement's one row: the posting's verdict, whether the API key
 * that asked is still usable, and the payout's id (null when refused). It
 * arrives as one JSON column: the pg driver's per-column set-up of a result
 * was a tenth of a payout's Node.js time with nine.
 */
export type PayoutStatementRow = PostingVerdict & { key_usable: boolean; payout_id: number | null; limit_exceeded: LimitExceeded | null };

const P = sql.placeholder;

/**
 * The payout statement, with or without its event (a pending bank payout
 * announces itself when it settles). Compiled once each: a payout only fills
 * the placeholders. bench/payouts also runs it through pgbench.
 */
export const payoutStatements = {
  withEvent: compiledOnce(() => payoutStatement(true)),
  withoutEvent: compiledOnce(() => payoutStatement(false)),
  /** A live bank payout: its request to the provider is queued in the same statement as the debit (the rail-request outbox). */
  withRailRequest: compiledOnce(() => payoutStatement(false, true)),
};

/**
 * A payout an API key asks for moves money only while that key is usable, as its statement sees it: a key revoked on
 * any instance stops there at once, so the API may act on a key it remembers without reading it first.
 */
export const actorKeyCte = sql`actor_key AS MATERIALIZED (
      SELECT ${P('apiKeyId')}::bigint IS NULL OR ${apiKeyUsable(sql`${P('apiKeyId')}::bigint`, sql`${P('businessId')}`, sql`${P('mode')}`)} AS usable
    )`;

/**
 * The payout row, its list total and its audit line, each field named by `v`
 * (writePayout's values): one row per row of `from` (a FROM clause reading
 * `posted`, with any ORDER BY); `payout` then holds each row's id and reference.
 */
export function payoutRowCtes(v: (name: string) => SQL | unknown, from: SQL, auditFrom: SQL): SQL {
  return sql`payout AS (
      INSERT INTO payouts (business_id, mode, payout_type, status, currency, amount, service_fee, charge_payer, reference,
                           source_card_id, source_card_number, destination_card_number, merchant_id, bank_slug, account_number,
                           account_name, transaction_id, actor_type, actor_id, created_at, updated_at, completed_at, settle_after)
      SELECT ${v('businessId')}, ${v('mode')}, ${v('payoutType')}, ${v('status')}, ${v('currency')}, ${v('amount')}, ${v('serviceFee')},
             ${v('chargePayer')}, ${v('reference')}, ${v('sourceCardId')}, ${v('sourceCardNumber')}, ${v('destinationCardNumber')},
             ${v('merchantId')}, ${v('bankSlug')}, ${v('accountNumber')}, ${v('accountName')}, posted.id, ${v('actorType')}, ${v('actorId')},
             ${v('now')}::timestamptz, ${v('now')}::timestamptz, ${v('completedAt')}::timestamptz, ${v('settleAfter')}::timestamptz
      ${from}
      RETURNING id, reference
    ), payout_counted AS (
      ${counterIncrement('payouts', 'payout')}
    ), payout_audited AS (
      INSERT INTO audit_log (business_id, mode, actor_type, actor_id, action, target, details)
      SELECT ${v('businessId')}, ${v('mode')}, ${v('actorType')}, ${v('actorId')}, ${v('auditAction')}, ${v('reference')}, ${v('auditDetails')}::jsonb
      ${auditFrom}
    )`;
}

/** A card-to-card payout's destination card hears of the money it received (lib/messages/), when its messages are on. */
const receivedMessageCtes = (destinationCardId: SQL, posted: SQL) =>
  queueMessagesCtes(
    'received_message',
    sql`SELECT c.id, jsonb_build_object('transaction_id', t.id) FROM (SELECT posted.id ${posted}) t, cards c
        WHERE c.id = ${destinationCardId} AND c.messages_on`,
    { kind: 'money_added' },
  );

function payoutStatement(withEvent: boolean, withRailRequest = false): SQL {
  return sql`
    WITH ${actorKeyCte}, ${payoutLimitsCte}, ${postingCtes(payoutGuards('single', P), 3, PAYOUT_DAY_LIMIT.single(P))},
    ${payoutRowCtes((name) => P(name), sql`FROM posted`, sql`FROM payout`)}, ${receivedMessageCtes(sql`${P('destinationCardId')}::bigint`, sql`FROM posted`)}${withEvent ? sql`, ${eventCtes('payout')}` : sql``}${
      withRailRequest
        ? sql`, rail_requested AS (
      INSERT INTO rail_requests (payout_id, business_id, mode, provider, reference, bank_code, amount, currency)
      SELECT id, ${P('businessId')}, ${P('mode')}, ${P('railProvider')}, ${P('reference')}, ${P('railBankCode')}, ${P('railAmount')}, ${P('currency')}
      FROM payout
    ), rail_job AS (
      ${enqueueJobsSql('rail_request', sql`SELECT reference, ${P('businessId')}::int, ${P('mode')}::text FROM payout`)}
    )`
        : sql``
    }
    SELECT to_json(r) AS verdict FROM (
      SELECT ${postingVerdict}, (SELECT usable FROM actor_key) AS key_usable, (SELECT id FROM payout) AS payout_id,
        ${payoutLimitVerdict} FROM verdict v) r`;
}
