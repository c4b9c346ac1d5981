import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { adminClient, createCard, createTestBusiness, testDb, type ApiClient, type ApiResponse, type TestBusiness } from '../helpers';
import { fundCard, setFees } from './payouts-fixtures';

/**
 * Twins: one business sent a batch of payouts, another the same items one by one (POST /card/payouts), from the
 * same set-up; everything the two hold afterwards must match (tests/api/batches.test.ts, batch-limits-twins.test.ts).
 */

export const payoutsBatch = (client: ApiClient, payouts: unknown, headers?: Record<string, string>) =>
  client.post('/api/v1/card/payouts/batch', { payouts }, { headers });

/** What a single call answered, as a batch item carries it: the data, or the error envelope without the HTTP status. */
export const asItem = (res: ApiResponse) =>
  res.body.status === 'success' ? res.body.data : { status: 'error', message: res.body.message, error: res.body.error };

/** Two cards per business and a merchant to pay: the same set-up for a batch and its twin fed singly. */
/** The business limits of a twin (lib/limits/), in minor units; undefined is none. */
export interface TwinOptions {
  fees?: boolean;
  dailyLimit?: number;
  maxPayout?: number;
  maxCardBalance?: number;
}

export interface Setup {
  biz: TestBusiness;
  cards: string[];
}

export async function setUp(name: string, balances: number[], options: TwinOptions = {}): Promise<Setup> {
  const biz = await createTestBusiness(name);
  if (options.fees) {
    await setFees(biz, 'test', [
      { applies_to: 'card_to_card', percent: '1.5', fixed: 20 },
      { applies_to: 'b2b', percent: '0', fixed: 150 },
      { applies_to: 'bank', percent: '2', fixed: 0, min: 50 },
    ]);
  }
  const { dailyLimit = null, maxPayout = null, maxCardBalance = null } = options;
  if (dailyLimit !== null || maxPayout !== null || maxCardBalance !== null) {
    const res = await adminClient().put(`/api/admin/businesses/${biz.id}/limits`, {
      mode: 'test',
      currency: 'ETB',
      max_payout: maxPayout,
      daily_payout: dailyLimit,
      max_card_balance: maxCardBalance,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const cards: string[] = [];
  for (const balance of balances) {
    const card = (await createCard(biz.test)).card_number as string;
    if (balance > 0) await fundCard(biz, card, balance);
    cards.push(card);
  }
  return { biz, cards };
}

export type Item =
  | { kind: 'c2c'; from: number; to: number; amount: number; payer?: 'sender' | 'receiver' }
  | { kind: 'b2b'; from: number; amount: number; payer?: 'business' | 'customer' }
  | { kind: 'bank'; from: number; amount: number; fails: boolean }
  | { kind: 'bad'; from: number };

/** An item as the wire body of POST /card/payouts, for a business's own cards. */
function wire(item: Item, s: Setup, merchant: TestBusiness): unknown {
  const card_number = s.cards[item.from];
  switch (item.kind) {
    case 'c2c':
      return { card_number, destination_card_number: s.cards[item.to], amount: item.amount, charge_payer: item.payer };
    case 'b2b':
      return { card_number, merchant_id: merchant.merchant_id, amount: item.amount, charge_payer: item.payer };
    case 'bank':
      return { card_number, amount: item.amount, bank_slug: 'cbe', account_number: item.fails ? '1000123450000' : '1000123456789', account_name: 'Batch Test' };
    case 'bad':
      return { card_number, amount: 'lots', destination_card_number: s.cards[item.from] };
  }
}

/** What a business holds after its payouts, with references, card numbers and times replaced by what stays equal between twins. */
export async function stateOf(s: Setup) {
  const index = (n: string | null) => (n === null ? null : s.cards.indexOf(n));
  const payoutRows = await testDb().execute<Record<string, any>>(sql`
    SELECT payout_type, status, amount, service_fee, charge_payer, source_card_number, destination_card_number, merchant_id, account_number, reference
    FROM payouts WHERE business_id = ${s.biz.id} AND is_ledger_topup = false ORDER BY id`);
  const references = new Map(payoutRows.rows.map((r, i) => [r.reference as string, i]));
  const events = await testDb().execute<{ type: string; body: string }>(
    sql`SELECT type, body FROM webhook_events WHERE business_id = ${s.biz.id} AND type LIKE 'payout.%' ORDER BY id`,
  );
  const balances = await testDb().execute<{ card_number: string; balance: number }>(sql`
    SELECT c.card_number, a.balance FROM cards c JOIN ledger_accounts a ON a.id = c.account_id WHERE c.business_id = ${s.biz.id}`);
  // Each payout's ledger lines, payouts in the order written: a card by its index with its balance after; a shared account
  // (fee revenue shard, the merchant's) by its kind, its balance being shared with other tests. Within a payout the lines
  // go by account id, and the fee shard (random per call) has another id in each twin: sorted by what they name instead.
  const entries = await testDb().execute<{ payout: string; kind: string; card_number: string | null; amount: number; balance_after: number }>(sql`
    SELECT p.reference AS payout, a.kind, c.card_number, e.amount, e.balance_after
    FROM payouts p JOIN ledger_transactions t ON t.id = p.transaction_id JOIN ledger_entries e ON e.transaction_id = t.id
    JOIN ledger_accounts a ON a.id = e.account_id LEFT JOIN cards c ON c.account_id = a.id
    WHERE p.business_id = ${s.biz.id} AND p.is_ledger_topup = false ORDER BY e.id`);
  const audit = await testDb().execute<{ action: string; target: string; details: unknown }>(sql`
    SELECT action, target, details FROM audit_log WHERE business_id = ${s.biz.id} AND action LIKE 'payout.%' ORDER BY id`);
  const deliveries = await testDb().execute<{ subject_reference: string; n: number }>(sql`
    SELECT e.subject_reference, count(d.id)::int AS n FROM webhook_events e LEFT JOIN webhook_deliveries d ON d.event_id = e.id
    WHERE e.business_id = ${s.biz.id} AND e.type LIKE 'payout.%' GROUP BY e.id ORDER BY e.id`);
  const counters = await testDb().execute<{ kind: string; n: number }>(sql`
    SELECT kind, sum(count)::int AS n FROM list_counters WHERE business_id = ${s.biz.id} AND kind IN ('payouts', 'events') GROUP BY kind ORDER BY kind`);
  const days = await testDb().execute<{ currency: string; total: number }>(sql`
    SELECT currency, total::int FROM payout_day_totals WHERE business_id = ${s.biz.id} ORDER BY currency, day`);
  return {
    balances: s.cards.map((n) => Number(balances.rows.find((b) => b.card_number === n)!.balance)),
    payouts: payoutRows.rows.map(
      ({ reference, source_card_number, destination_card_number, ...r }): Record<string, unknown> => ({
        ...r,
        source: index(source_card_number),
        destination: index(destination_card_number),
      }),
    ),
    events: events.rows
      .map((e) => ({ type: e.type, body: JSON.parse(e.body) as Record<string, any> }))
      .filter((e) => references.has(e.body.initiator_reference ?? e.body.provider_reference))
      .map(({ type, body }) => {
        const { initiator_reference, provider_reference, created_at, updated_at, meta, customer, ...rest } = body;
        return {
          type,
          payout: references.get(initiator_reference ?? provider_reference),
          ...rest,
          meta: { ...meta, source_card_number: index(meta?.source_card_number), destination_card_number: index(meta?.destination_card_number ?? null) },
        };
      }),
    entries: entries.rows
      .map((e) => ({
        payout: references.get(e.payout)!,
        account: e.card_number === null ? e.kind : index(e.card_number),
        amount: Number(e.amount),
        ...(e.card_number === null ? {} : { after: Number(e.balance_after) }),
      }))
      .sort((x, y) => x.payout - y.payout || String(x.account).localeCompare(String(y.account))),
    audit: audit.rows.filter((a) => references.has(a.target)).map((a) => ({ action: a.action, payout: references.get(a.target), details: a.details })),
    deliveries: deliveries.rows.map((d) => ({ payout: references.get(d.subject_reference), n: d.n })),
    counters: counters.rows,
    days: days.rows,
  };
}

/** The payouts' creation times by id: a chunk written by one statement shares one; payouts written one by one each have their own. */
export async function createdTimes(s: Setup): Promise<string[]> {
  const r = await testDb().execute<{ t: string }>(
    sql`SELECT created_at::text AS t FROM payouts WHERE business_id = ${s.biz.id} AND is_ledger_topup = false ORDER BY id`,
  );
  return r.rows.map((x) => x.t);
}

/** Sends `items` as one batch to `batched` and one by one to `single`; both answers and both businesses' rows must match. */
export async function expectSameAsSingles(batched: Setup, single: Setup, items: Item[], merchant: TestBusiness) {
  const res = await payoutsBatch(
    batched.biz.test,
    items.map((i) => wire(i, batched, merchant)),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const singles = [];
  for (const i of items) singles.push(asItem(await single.biz.test.post('/api/v1/card/payouts', wire(i, single, merchant))));
  const results = res.body.data.results as Record<string, any>[];
  expect(results.map((r) => comparableResult(r, batched))).toEqual(singles.map((r) => comparableResult(r, single)));
  expect(await stateOf(batched)).toEqual(await stateOf(single));
  return results;
}

/** A result with its references and times left out: the rest must match between a batch and its twin. */
function comparableResult(r: Record<string, any>, s: Setup) {
  if (r.status === 'error') return r;
  const { initiator_reference, provider_reference, created_at, updated_at, source_card_number, destination_card_number, ...rest } = r;
  return {
    ...rest,
    reference: initiator_reference ? 'initiator' : 'provider',
    source: s.cards.indexOf(source_card_number),
    destination: destination_card_number ? s.cards.indexOf(destination_card_number) : undefined,
  };
}
