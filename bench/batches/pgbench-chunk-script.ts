import { payoutChunkStatement } from '../../lib/batches/payouts-chunk-statement';

const quote = (v: unknown) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

/** The chunk's shared placeholders for card-to-card payouts of business :biz by a system actor (no API key). */
const SHARED: Record<string, string> = {
  businessId: ':biz',
  mode: quote('test'),
  currency: quote('ETB'),
  actorType: quote('system'),
  actorId: quote('bench'),
  apiKeyId: 'NULL',
  now: 'now()',
  reversesId: 'NULL',
};

/**
 * Each item's values as the app sends them (payoutStatementValues), for a card-to-card payout of 100 with no fee
 * from card s to card d (rows of cards), numbered g within the chunk: SQL expressions of s, d, g and the client.
 */
const ITEM: Record<string, string> = {
  ord: 'v.g',
  payoutType: quote('card_to_card'),
  status: quote('success'),
  amount: '100',
  serviceFee: '0',
  chargePayer: quote('sender'),
  reference: 'v.ref',
  sourceCardId: 's.id',
  sourceCardNumber: 's.card_number',
  destinationCardId: 'd.id',
  destinationCardNumber: 'd.card_number',
  merchantId: 'NULL',
  bankSlug: 'NULL',
  accountNumber: 'NULL',
  accountName: 'NULL',
  completedAt: 'now()',
  settleAfter: 'NULL',
  kind: quote('payout_card_to_card'),
  feeKind: quote('card_to_card'),
  feeSignature: quote(''),
  auditAction: quote('payout.card_to_card.created'),
  auditDetails: quote('{"amount":100,"service_fee":0,"charge_payer":"sender","status":"success"}'),
  eventId: `'msg_' || v.ref`,
  eventType: quote('payout.success'),
  eventBody: `'{"event":"payout.success","status":"success","mode":"test","payout_type":"card_to_card","currency":"ETB","amount":100,"initiator_reference":"' || v.ref || '","customer":{"first_name":"Bench","last_name":"Holder","phone_number":"+251900006597"},"meta":{"source_card_number":"' || s.card_number || '","destination_card_number":"' || d.card_number || '"},"created_at":"2026-11-22T05:54:52.042Z","updated_at":"2026-11-22T05:54:52.042Z"}'`,
  subjectReference: 'v.ref',
  // postingValues sorts a posting's accounts by id.
  account0: 'least(s.account_id, d.account_id)',
  amount0: 'CASE WHEN s.account_id < d.account_id THEN -100 ELSE 100 END',
  account1: 'greatest(s.account_id, d.account_id)',
  amount1: 'CASE WHEN s.account_id < d.account_id THEN 100 ELSE -100 END',
  account2: 'NULL',
  amount2: 'NULL',
};

/**
 * One pgbench statement: the chunk statement the app compiles (so it cannot
 * drift from it), its items parameter built in SQL from the card ids :a{i} and
 * :b{i} of `items` (pgbench variables), each with a reference unique by :r,
 * the client and the item.
 */
export function pgbenchChunkStatement(items: number[]): string {
  const statement = payoutChunkStatement();
  const pairs = Object.entries(ITEM).map(([name, expression]) => `${quote(name)}, ${expression}`);
  // pgbench takes at most 255 arguments a statement: the two card ids an item, the reference's parts once.
  const rows = items.map((i, g) => `(${g}, :a${i}::bigint, :b${i}::bigint)`).join(', ');
  const itemsJson = `(SELECT jsonb_agg(jsonb_build_object(${pairs.join(', ')}) ORDER BY v.g)
    FROM (SELECT g, a, b, 'c2c_' || ref.prefix || '_' || g AS ref FROM (VALUES ${rows}) AS x(g, a, b),
      (SELECT :r || '_' || :client_id AS prefix) ref) v JOIN cards s ON s.id = v.a JOIN cards d ON d.id = v.b)`;
  const sqlFor = statement.slots.map((slot) => {
    if ('value' in slot) return quote(slot.value);
    const expression = slot.placeholder === 'items' ? itemsJson : SHARED[slot.placeholder];
    if (expression === undefined) throw new Error(`the pgbench chunk script has no value for placeholder ${slot.placeholder}`);
    return expression;
  });
  return `${statement.text.replace(/\$(\d+)/g, (_, n: string) => sqlFor[Number(n) - 1]).trim()};`;
}
