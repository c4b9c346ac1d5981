import { sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/client';
import { compiledOnce, runCompiled } from '../db/prepared';
import { ServiceError } from '../errors';
import { postingChunkCtes } from '../ledger/post-transaction';
import { queueMessagesCtes } from '../messages/queue-message';
import { payoutLimitsCte } from '../limits/limit-sql';
import { partyNumbers, quoteAndPlan, writeRequestedPayout, type QuotedPayout, type WritePayoutOptions, type WrittenPayout } from '../payouts/create-payout';
import { payoutParties } from '../payouts/payout-parties';
import type { PayoutRequest } from '../payouts/payout-request';
import { PAYOUT_DAY_LIMIT, payoutGuards } from '../payouts/payout-guard-list';
import { actorKeyCte, payoutRowCtes } from '../payouts/payout-statement';
import type { PayoutRow } from '../payouts/payout-view';
import { payoutStatementValues } from '../payouts/write-payout';
import { eventsCtes } from '../webhooks/outbox';
import { itemResult, type BatchResult } from './batch-result';

/**
 * Writes a batch's chunk of payouts inside its transaction, answering each as
 * if sent one after another in order. When every item can be shown to pass
 * together, the whole chunk is one statement (payoutChunkStatement); otherwise, or
 * when that statement finds one that might not, each item is the single
 * payout's own statement, in order, as before.
 *
 * `lockAccounts` takes the chunk's cards' accounts in id order first, which
 * the items' own statements need (each adds accounts as it goes) and which
 * gives the chunk statement, begun after it, a view of everything committed
 * before the locks were granted. The chunk statement then locks every account
 * it moves (a merchant's too) in id order itself.
 */
export async function writeChunk(
  tx: Tx,
  opts: WritePayoutOptions,
  chunk: PayoutRequest[],
  lockAccounts: () => Promise<unknown>,
): Promise<BatchResult<WrittenPayout>[]> {
  // createPayout takes the pool's handle; given the transaction's, every statement it makes joins the batch's transaction.
  const db = tx as unknown as Db;
  // Locked first, in a statement of its own, even for the chunk statement: a statement sees the rows as they were when it
  // began, so one that waited inside for another transaction's locks would judge card states, holds, keys and fee rules
  // from before that transaction committed (only the balances it locks are read afresh).
  await lockAccounts();
  const atOnce = chunk.length > 1 && SET_WISE ? await writeAtOnce(db, opts, chunk) : 'not tried';
  if (atOnce !== 'not tried' && atOnce !== 'refused') return atOnce;
  const out: BatchResult<WrittenPayout>[] = [];
  for (const request of chunk) out.push(await itemResult(() => writeRequestedPayout(db, opts, request)));
  return out;
}

/**
 * The chunk in one statement; else nothing written, and whether the statement
 * ran (then holding its accounts' locks) and found an item that might not pass. Node.js first does each item's read and quote
 * as its single call's first attempt would (the batch has its parties in
 * memory): an item its quote refuses, one that goes to a bank, or one in
 * another currency than the first leaves the chunk to the items' own
 * statements, which answer it. What was read is a guess the statement checks.
 */
async function writeAtOnce(db: Db, opts: WritePayoutOptions, chunk: PayoutRequest[]): Promise<BatchResult<WrittenPayout>[] | 'not tried' | 'refused'> {
  if (chunk.some((r) => r.type === 'bank')) return 'not tried';
  const quoted: QuotedPayout[] = [];
  for (const request of chunk) {
    const parties = await payoutParties(db, opts.businessId, opts.mode, request.type, partyNumbers(request), false);
    try {
      quoted.push(await quoteAndPlan(db, opts, request, parties));
    } catch (err) {
      if (err instanceof ServiceError) return 'not tried';
      throw err;
    }
  }
  const currency = quoted[0].p.source.currency;
  if (quoted.some((q) => q.p.source.currency !== currency || q.plan.status !== 'success' || q.plan.extra.railRequest)) return 'not tried';
  const now = new Date();
  const written = quoted.map((q) => payoutStatementValues(opts, q.p, q.plan.kind, q.postings, q.plan.extra, q.plan.status, now));
  const items = written.map(({ values }, ord) => Object.fromEntries([['ord', ord], ...Object.keys(ITEM_COLUMNS).map((name) => [name, values[name] ?? null])]));
  const shared = Object.fromEntries(CHUNK_WIDE.map((name) => [name, written[0].values[name] ?? null]));
  const result = await runCompiled<{ ids: [number, number][] | null }>(db, payoutChunkStatement(), { ...shared, items: JSON.stringify(items) });
  const { ids } = result.rows[0];
  if (ids === null) return 'refused';
  if (ids.length !== chunk.length) throw new Error(`payout chunk statement wrote ${ids.length} of ${chunk.length} payouts`);
  return quoted.map((q, k) => {
    const payout: PayoutRow = { id: Number(ids[k][0]), transactionId: Number(ids[k][1]), ...written[k].payout };
    return { ok: true, value: { plan: q.plan, payout } };
  });
}

/** PAYOUT_CHUNK_STATEMENT=off writes every item by its own statement, as before the chunk statement: to compare, or to rule it out. */
const SET_WISE = process.env.PAYOUT_CHUNK_STATEMENT !== 'off';

/** The values that are the same for every item of a chunk (one business, mode, actor, currency and instant): placeholders. */
const CHUNK_WIDE = ['businessId', 'mode', 'currency', 'actorType', 'actorId', 'apiKeyId', 'now', 'reversesId'];

/** Each item's values (payoutStatementValues' names) with their SQL types: the columns of `items`, read from the chunk's one JSON parameter. */
const ITEM_COLUMNS: Record<string, string> = {
  payoutType: 'text',
  status: 'text',
  amount: 'bigint',
  serviceFee: 'bigint',
  chargePayer: 'text',
  reference: 'text',
  sourceCardId: 'bigint',
  sourceCardNumber: 'text',
  destinationCardId: 'bigint',
  destinationCardNumber: 'text',
  merchantId: 'text',
  bankSlug: 'text',
  accountNumber: 'text',
  accountName: 'text',
  completedAt: 'timestamptz',
  settleAfter: 'timestamptz',
  kind: 'text',
  feeKind: 'text',
  feeSignature: 'text',
  auditAction: 'text',
  auditDetails: 'text',
  eventId: 'text',
  eventType: 'text',
  eventBody: 'text',
  subjectReference: 'text',
  account0: 'bigint',
  amount0: 'bigint',
  account1: 'bigint',
  amount1: 'bigint',
  account2: 'bigint',
  amount2: 'bigint',
};

const P = sql.placeholder;

/** A value of the single payout statement, by name, as the chunk statement reads it: the chunk's placeholder or the item's column. */
function v(name: string): SQL | ReturnType<typeof P> {
  if (CHUNK_WIDE.includes(name)) return P(name);
  if (name in ITEM_COLUMNS) return sql.raw(`i."${name}"`);
  throw new Error(`the payout chunk statement has no value ${name}`);
}

/**
 * The single payout statement's writes for a whole chunk, set-wise: one
 * ledger transaction, payout row, audit line, event and deliveries per item in
 * item order, each account's balance updated once, each list total moved
 * once by the chunk's count, the day's total once by its sum. Its guard is
 * the single statement's list (PAYOUT_GUARDS), each in its chunk form made
 * jointly on the worst case (every card still active and every fee rule
 * unchanged, the key usable, every amount within max_payout, every credited
 * card within max_card_balance with all the chunk's credits and none of its
 * debits), every debited account covering all the chunk's debits without its
 * credits, and the day's total within its limit with the whole chunk.
 * Passing it, each item passes sent alone in order; failing it, the
 * statement writes nothing and answers `ids` null.
 */
export const payoutChunkStatement = compiledOnce(() => {
  const columns = sql.raw(['ord int', ...Object.entries(ITEM_COLUMNS).map(([name, type]) => `"${name}" ${type}`)].join(', '));
  // Each item's lines must balance by themselves: the joint posting's own check sums the whole chunk's.
  const guard = sql`${payoutGuards('chunk', v)}
    AND NOT EXISTS (SELECT 1 FROM lines GROUP BY ord HAVING sum(amount) <> 0)`;
  const inOrder = (cte: string) => sql`FROM items i JOIN ${sql.identifier(cte)} ON ${sql.identifier(cte)}.reference = i.reference ORDER BY i.ord`;
  return sql`
    WITH items AS MATERIALIZED (
      SELECT * FROM jsonb_to_recordset(${P('items')}::jsonb) AS i(${columns})
    ), lines AS MATERIALIZED (
      SELECT i.ord, x.account_id, x.amount FROM items i,
        LATERAL (VALUES (i.account0, i.amount0), (i.account1, i.amount1), (i.account2, i.amount2)) AS x(account_id, amount)
      WHERE x.account_id IS NOT NULL
    ), ${actorKeyCte}, ${payoutLimitsCte}, ${postingChunkCtes(v, guard, PAYOUT_DAY_LIMIT.chunk())},
    ${payoutRowCtes(v, inOrder('posted'), inOrder('payout'))}, ${eventsCtes(v, inOrder('payout'))},
    ${queueMessagesCtes(
      'received_messages',
      sql`SELECT c.id, jsonb_build_object('transaction_id', t.id) FROM items i JOIN posted t ON t.reference = i.reference
          JOIN cards c ON c.id = i."destinationCardId" WHERE c.messages_on ORDER BY i.ord`,
      { kind: 'money_added' },
    )}
    SELECT (SELECT json_agg(json_build_array(p.id, t.id) ORDER BY i.ord)
      FROM items i JOIN payout p ON p.reference = i.reference JOIN posted t ON t.reference = i.reference) AS ids`;
});
