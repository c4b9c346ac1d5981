import { sql } from 'drizzle-orm';
import { payoutNetSql } from '../../dashboard/net-amount';
import { entryBoundary, STRAGGLER_MS } from '../../ledger/entry-boundary';
import { BANKS } from '../../providers/banks';
import { CURRENCIES } from '../../validation';
import type { DayRange } from '../report-range';
import type { ReconciliationOptions } from './definitions';

export const PROBLEM_LIMIT = 500;
const WALLETS = BANKS.filter((b) => b.type === 'wallet').map((b) => b.slug);
const SENT_PAYOUTS = ['payout_card_to_card', 'payout_bank', 'payout_b2b'];
const PAYOUT_KINDS = [...SENT_PAYOUTS, 'payout_bank_reversal', 'transfer', 'transfer_settlement', 'transfer_reversal'];
const ADJUSTMENT_KINDS = ['adjustment_increase', 'adjustment_decrease'];
const KNOWN_KINDS = [
  ...PAYOUT_KINDS,
  ...ADJUSTMENT_KINDS,
  'card_redemption',
  'payment',
  'payment_refund',
  'payment_refund_reversal',
  'business_deposit',
  'card_cancellation',
  'card_expiry',
];
const list = (values: readonly string[]) =>
  sql.join(
    values.map((v) => sql`${v}`),
    sql`, `,
  );

/**
 * The whole report in one statement (one snapshot, one pass over the range):
 * the business's ledger transactions of the range (those it made, and the
 * business payouts others sent it), their entries, the figures per day and
 * currency, the trial balance and balance-chain breaks, and the cross-check
 * against payouts and payments, as rows of a few sections.
 */
export function reportStatement(opts: ReconciliationOptions, range: DayRange) {
  const B = opts.businessId;
  const M = opts.mode;
  const tz = opts.timeZone;
  const start = range.start.toISOString();
  const end = range.end.toISOString();
  const within = (col: string) => sql`${sql.identifier(col)} >= ${start}::timestamptz AND ${sql.identifier(col)} < ${end}::timestamptz`;
  const dayOf = (col: string) => sql`to_char(${sql.identifier(col)} AT TIME ZONE ${tz}, 'YYYY-MM-DD')`;
  const currency = opts.currency ? sql`e.currency = ${opts.currency}` : sql`true`;
  const rowCurrency = opts.currency ? sql`currency = ${opts.currency}` : sql`true`;
  const f = (cond: string, col = 'own_in') => sql.raw(`coalesce(sum(${col}) FILTER (WHERE ${cond}), 0)`);
  // A branch's report: its spends alone (redemptions, captured till holds among them); nothing else happens at a branch,
  // so the business payouts others sent and the checks against the payouts and payments tables are left out.
  const branch = opts.location;
  const whole = branch === undefined ? sql`true` : sql`false`;
  const atBranch =
    branch === undefined ? sql`true` : sql`t.kind = 'card_redemption' AND ${branch === 'none' ? sql`t.location_id IS NULL` : sql`t.location_id = ${branch}`}`;
  return sql`
    WITH accounts AS MATERIALIZED (
      -- This business's accounts: its business accounts (by the unique name index) and its cards, cancelled ones included.
      SELECT ba.id FROM ledger_accounts ba
      WHERE ba.mode = ${M} AND ba.currency IN (${list(CURRENCIES)}) AND ba.name = ${`business:${B}`} AND ba.kind = 'business'
      UNION ALL
      SELECT c.account_id FROM cards c WHERE c.business_id = ${B} AND c.mode = ${M}
    ), bounds AS MATERIALIZED (
      SELECT ${entryBoundary(new Date(range.start.getTime() - STRAGGLER_MS))} AS lo,
             ${entryBoundary(new Date(range.end.getTime() + STRAGGLER_MS))} AS hi
    ), received AS MATERIALIZED (
      -- Transactions other businesses made that touch this business's accounts (business payouts to its business
      -- account, card-to-card payouts to its cards), found from those accounts' entries by (account_id, id) between
      -- the entries written an hour either side of the range (stragglers included), then by time exactly.
      SELECT DISTINCT x.transaction_id AS id FROM accounts a CROSS JOIN bounds b
      CROSS JOIN LATERAL (SELECT e.transaction_id FROM ledger_entries e WHERE e.account_id = a.id AND e.id >= b.lo AND e.id < b.hi) x
    ), tx AS MATERIALIZED (
      SELECT t.id, t.kind, t.reference, t.business_id = ${B} AS ours, ${dayOf('created_at')} AS day,
        CASE WHEN t.kind = 'payout_bank' THEN coalesce((SELECT p.bank_slug IN (${list(WALLETS)}) FROM payouts p
          WHERE p.reference = t.reference AND p.business_id = ${B} AND p.mode = ${M}), false) ELSE false END AS wallet
      FROM ledger_transactions t
      WHERE t.business_id = ${B} AND t.mode = ${M} AND ${within('created_at')} AND ${atBranch}
      UNION ALL
      SELECT t.id, t.kind, t.reference, false, ${dayOf('created_at')}, false
      FROM received r JOIN ledger_transactions t ON t.id = r.id
      WHERE t.business_id IS DISTINCT FROM ${B} AND t.mode = ${M} AND ${within('created_at')} AND ${whole}
    ), ent AS MATERIALIZED (
      SELECT tx.*, e.id AS entry_id, e.account_id, e.currency, e.amount, e.balance_after, a.kind AS account_kind, a.name AS account_name,
        (a.business_id = ${B} AND a.mode = ${M} AND a.kind IN ('card', 'business', 'held', 'breakage')) AS own
      FROM tx JOIN ledger_entries e ON e.transaction_id = tx.id JOIN ledger_accounts a ON a.id = e.account_id
      WHERE ${currency}
    ), per_tx AS MATERIALIZED (
      SELECT id, kind, reference, ours, day, wallet, currency,
        sum(amount) AS total,
        coalesce(sum(-amount) FILTER (WHERE amount < 0), 0) AS debits,
        coalesce(sum(amount) FILTER (WHERE amount > 0), 0) AS credits,
        coalesce(sum(-amount) FILTER (WHERE own AND amount < 0), 0) AS own_out,
        coalesce(sum(amount) FILTER (WHERE own AND amount > 0), 0) AS own_in,
        coalesce(sum(amount) FILTER (WHERE account_kind = 'fee_revenue'), 0) AS fee,
        coalesce(bool_or(account_name = 'clearing:checkout'), false) AS hosted,
        -- A card-to-card payout that leaves the business or comes in from another one.
        (kind = 'payout_card_to_card' AND NOT (ours AND coalesce(bool_or(own AND amount > 0), false))) AS crossing
      FROM ent GROUP BY id, kind, reference, ours, day, wallet, currency
    ), days AS (
      SELECT day, currency, count(*) AS transactions,
        ${f("kind = 'payment' AND hosted")} AS "paymentsHosted",
        ${f("kind = 'payment' AND NOT hosted")} AS "paymentsWallet",
        ${f("kind = 'business_deposit'")} AS deposits,
        ${f("kind = 'payout_b2b' AND NOT ours")} AS "b2bReceived",
        ${f("kind = 'transfer_settlement'")} AS "topupsDelivered",
        ${f("kind = 'payout_card_to_card' AND NOT crossing")} AS "cardToCardReceived",
        ${f("kind = 'payout_card_to_card' AND crossing")} AS "cardToCardFromOthers",
        ${f("kind = 'card_cancellation'")} AS "cardsSweptIn",
        ${f("kind = 'card_expiry'")} AS "breakageRecognised",
        ${f("kind IN ('adjustment_increase', 'adjustment_decrease')")} AS "adjustmentsIn",
        ${f("kind = 'card_redemption'")} AS "redemptionsIn",
        ${f("kind = 'card_redemption'", 'own_out')} AS "redemptionsOut",
        ${f("kind = 'payout_card_to_card' AND NOT crossing", 'own_out')} AS "cardToCardSent",
        ${f("kind = 'payout_card_to_card' AND crossing", 'own_out')} AS "cardToCardToOthers",
        ${f("kind = 'payout_bank' AND NOT wallet", 'own_out')} AS "bankPayouts",
        ${f("kind = 'payout_bank' AND wallet", 'own_out')} AS "walletPayouts",
        ${f("kind = 'payout_b2b' AND ours", 'own_out')} AS "b2bSent",
        ${f("kind = 'transfer'", 'own_out')} AS "topupsSent",
        ${f("kind = 'card_cancellation'", 'own_out')} AS "cardsEmptied",
        ${f("kind = 'card_expiry'", 'own_out')} AS "cardsExpired",
        ${f("kind = 'payment_refund'", 'own_out')} AS "paymentsRefunded",
        ${f("kind IN ('adjustment_increase', 'adjustment_decrease')", 'own_out')} AS "adjustmentsOut",
        ${f("kind = 'payout_bank_reversal'")} AS "payoutsRefunded",
        ${f("kind = 'payment_refund_reversal'")} AS "refundsReturned",
        ${f("kind = 'transfer_reversal'")} AS "topupsReturned",
        ${f("kind IN ('payout_card_to_card', 'payout_bank', 'payout_b2b') AND ours", 'fee')} AS "feesOnPayouts",
        ${f("kind = 'payment'", 'fee')} AS "feesOnPayments",
        ${f("kind = 'card_redemption'", 'fee')} AS "feesOnRedemptions",
        ${f("kind = 'payout_bank_reversal'", '-fee')} AS "feesRefunded",
        coalesce(sum(own_in) FILTER (WHERE kind NOT IN (${list(KNOWN_KINDS)})), 0) AS "otherIn",
        coalesce(sum(own_out) FILTER (WHERE kind NOT IN (${list(KNOWN_KINDS)})), 0) AS "otherOut",
        sum(own_in - own_out) AS "netChange", sum(debits) AS debits, sum(credits) AS credits
      FROM per_tx GROUP BY day, currency
    ), unbalanced AS MATERIALIZED (
      SELECT day, currency, id, kind, reference, total FROM per_tx WHERE total <> 0
    ), chain AS MATERIALIZED (
      SELECT ent.day, ent.currency, ent.id, ent.kind, ent.reference, ent.entry_id, ent.account_kind,
        ent.balance_after - (coalesce(prev.balance_after, 0) + ent.amount) AS off_by
      FROM ent LEFT JOIN LATERAL (
        SELECT p.balance_after FROM ledger_entries p WHERE p.account_id = ent.account_id AND p.id < ent.entry_id ORDER BY p.id DESC LIMIT 1
      ) prev ON true
      WHERE ent.own AND ent.balance_after <> coalesce(prev.balance_after, 0) + ent.amount
    ), ledger_side AS (
      SELECT id, kind, reference, day, currency, c.check_name,
        CASE WHEN c.check_name IN ('payout', 'topup_sent', 'payment_refund') THEN own_out ELSE own_in END AS amount,
        CASE WHEN c.check_name = 'payout_refund' THEN -fee
          WHEN c.check_name IN ('topup_sent', 'topup_delivered', 'topup_returned', 'payment_refund', 'refund_returned') THEN 0 ELSE fee END AS fee
      FROM per_tx CROSS JOIN LATERAL (SELECT CASE
        WHEN kind = 'payment' THEN 'payment'
        WHEN kind IN ('payout_card_to_card', 'payout_bank', 'payout_b2b') AND ours THEN 'payout'
        WHEN kind = 'payout_b2b' THEN 'b2b_received'
        WHEN kind = 'payout_card_to_card' THEN 'card_to_card_received'
        WHEN kind = 'payout_bank_reversal' THEN 'payout_refund'
        WHEN kind = 'transfer' THEN 'topup_sent'
        WHEN kind = 'transfer_settlement' THEN 'topup_delivered'
        WHEN kind = 'transfer_reversal' THEN 'topup_returned'
        WHEN kind = 'payment_refund' THEN 'payment_refund'
        WHEN kind = 'payment_refund_reversal' THEN 'refund_returned'
      END AS check_name) c
      WHERE c.check_name IS NOT NULL
    ), ops AS MATERIALIZED (
      SELECT payouts.id, payouts.business_id, payouts.payout_type, payouts.reference, payouts.currency, payouts.status, payouts.is_ledger_topup, payouts.amount,
        payouts.service_fee, payouts.created_at, payouts.completed_at, ${payoutNetSql()} AS net
      FROM payouts
      WHERE payouts.id IN (
        SELECT p.id FROM payouts p WHERE p.business_id = ${B} AND p.mode = ${M} AND p.created_at >= ${start}::timestamptz AND p.created_at < ${end}::timestamptz
        UNION
        SELECT p.id FROM payouts p WHERE p.mode = ${M}
          AND p.reference IN (SELECT reference FROM tx WHERE kind IN (${list(PAYOUT_KINDS)}) AND reference IS NOT NULL)
          AND (p.business_id = ${B} OR (p.payout_type = 'b2b' AND p.merchant_id = (SELECT merchant_id FROM businesses WHERE id = ${B}))
            OR (p.payout_type = 'card_to_card' AND p.reference IN (SELECT reference FROM tx WHERE NOT ours)))
      ) AND ${rowCurrency}
    ), rows_side AS (
      SELECT * FROM (
      SELECT 'payout' AS check_name, reference, currency, ${dayOf('created_at')} AS day, net AS amount, service_fee AS fee
      FROM ops WHERE business_id = ${B} AND NOT is_ledger_topup AND ${within('created_at')}
      UNION ALL
      SELECT 'payout_refund', reference, currency, ${dayOf('completed_at')}, net, service_fee
      FROM ops WHERE business_id = ${B} AND NOT is_ledger_topup AND status = 'failed' AND ${within('completed_at')}
      UNION ALL
      SELECT 'topup_sent', reference, currency, ${dayOf('created_at')}, amount, 0
      FROM ops WHERE business_id = ${B} AND is_ledger_topup AND ${within('created_at')}
      UNION ALL
      SELECT 'topup_delivered', reference, currency, ${dayOf('completed_at')}, amount, 0
      FROM ops WHERE business_id = ${B} AND is_ledger_topup AND status = 'success' AND ${within('completed_at')}
      UNION ALL
      SELECT 'topup_returned', reference, currency, ${dayOf('completed_at')}, amount, 0
      FROM ops WHERE business_id = ${B} AND is_ledger_topup AND status = 'failed' AND ${within('completed_at')}
      UNION ALL
      SELECT 'b2b_received', reference, currency, ${dayOf('created_at')}, net - service_fee, service_fee
      FROM ops WHERE business_id <> ${B} AND payout_type = 'b2b' AND status = 'success' AND ${within('created_at')}
      UNION ALL
      SELECT 'card_to_card_received', reference, currency, ${dayOf('created_at')}, net - service_fee, service_fee
      FROM ops WHERE business_id <> ${B} AND payout_type = 'card_to_card' AND status = 'success' AND ${within('created_at')}
      UNION ALL
      SELECT 'payment', link_reference, currency, ${dayOf('completed_at')}, amount, service_fee
      FROM payments
      WHERE id IN (
        SELECT p.id FROM payments p WHERE p.business_id = ${B} AND p.mode = ${M} AND p.created_at >= ${start}::timestamptz AND p.created_at < ${end}::timestamptz
        UNION
        SELECT p.id FROM payments p WHERE p.link_reference IN (SELECT reference FROM tx WHERE kind = 'payment' AND reference IS NOT NULL)
          AND p.business_id = ${B} AND p.mode = ${M}
      ) AND status = 'success' AND ${within('completed_at')} AND ${rowCurrency}
      UNION ALL
      SELECT 'payment_refund', reference, currency, ${dayOf('created_at')}, amount, 0
      FROM refunds WHERE business_id = ${B} AND mode = ${M} AND ${within('created_at')} AND ${rowCurrency}
      UNION ALL
      SELECT 'refund_returned', reference, currency, ${dayOf('completed_at')}, amount, 0
      FROM refunds WHERE business_id = ${B} AND mode = ${M} AND status = 'failed' AND ${within('completed_at')} AND ${rowCurrency}
      ) r WHERE ${whole}
    ), checked AS MATERIALIZED (
      SELECT coalesce(l.check_name, r.check_name) AS check_name, coalesce(l.reference, r.reference) AS reference,
        coalesce(l.day, r.day) AS day, coalesce(l.currency, r.currency) AS currency, l.id, l.kind,
        l.amount AS ledger_amount, r.amount AS rows_amount, l.fee AS ledger_fee, r.fee AS rows_fee
      FROM ledger_side l FULL JOIN rows_side r ON r.check_name = l.check_name AND r.reference = l.reference
    ), mismatch AS MATERIALIZED (
      SELECT * FROM checked WHERE ledger_amount IS DISTINCT FROM rows_amount OR ledger_fee IS DISTINCT FROM rows_fee
    )
    SELECT 'day' AS section, to_jsonb(d) AS data FROM days d
    UNION ALL
    -- Whether a day reconciles is decided from these counts, never from the capped list of details.
    SELECT 'problems', jsonb_build_object('day', day, 'currency', currency, 'count', count(*)) FROM (
      SELECT day, currency FROM unbalanced UNION ALL SELECT day, currency FROM chain UNION ALL SELECT day, currency FROM mismatch
    ) p GROUP BY day, currency
    UNION ALL SELECT 'unbalanced', to_jsonb(u) FROM (SELECT * FROM unbalanced ORDER BY id LIMIT ${PROBLEM_LIMIT + 1}) u
    UNION ALL SELECT 'chain', to_jsonb(c) FROM (SELECT * FROM chain ORDER BY entry_id LIMIT ${PROBLEM_LIMIT + 1}) c
    UNION ALL
    SELECT 'check', jsonb_build_object('day', day, 'currency', currency, 'check', check_name,
      'ledger', coalesce(sum(ledger_amount), 0), 'rows', coalesce(sum(rows_amount), 0),
      'ledgerFee', coalesce(sum(ledger_fee), 0), 'rowsFee', coalesce(sum(rows_fee), 0),
      'ledgerCount', count(id), 'rowsCount', count(rows_amount))
    FROM checked GROUP BY day, currency, check_name
    UNION ALL
    SELECT 'mismatch', to_jsonb(m) FROM (SELECT * FROM mismatch ORDER BY day, id LIMIT ${PROBLEM_LIMIT + 1}) m`;
}
