import { payoutStatements } from '../../lib/payouts/payout-statement';

const quote = (v: unknown) => (v === null ? 'NULL' : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`);

// What pgbench puts in each placeholder of a card-to-card payout of 100 with no fee: card ids :a and :b
// drawn per transaction, a reference and event id made unique by :r and the client.
const CARD_TO_CARD: Record<string, string> = {
  account0: '(SELECT account_id FROM cards WHERE id = :a)',
  amount0: '-100',
  account1: '(SELECT account_id FROM cards WHERE id = :b)',
  amount1: '100',
  account2: 'NULL',
  amount2: 'NULL',
  accountCount: '2',
  mode: quote('test'),
  kind: quote('payout_card_to_card'),
  businessId: ':biz',
  reference: `('c2c_' || :r || '_' || :client_id)`,
  actorType: quote('system'),
  actorId: quote('bench'),
  apiKeyId: 'NULL',
  reversesId: 'NULL',
  sourceCardId: ':a',
  destinationCardId: ':b',
  feeKind: quote('card_to_card'),
  feeSignature: quote(''),
  payoutType: quote('card_to_card'),
  status: quote('success'),
  currency: quote('ETB'),
  amount: '100',
  serviceFee: '0',
  chargePayer: quote('sender'),
  sourceCardNumber: quote('1001067780636219'),
  destinationCardNumber: quote('1001307495024222'),
  merchantId: 'NULL',
  bankSlug: 'NULL',
  accountNumber: 'NULL',
  accountName: 'NULL',
  now: 'now()',
  completedAt: 'now()',
  settleAfter: 'NULL',
  auditAction: quote('payout.card_to_card.created'),
  auditDetails: quote('{"amount":100,"service_fee":0,"charge_payer":"sender","status":"success"}'),
  eventId: `('msg_' || :r || '_' || :client_id)`,
  eventType: quote('payout.success'),
  eventBody: quote(
    '{"event":"payout.success","status":"success","mode":"test","payout_type":"card_to_card","currency":"ETB","amount":100,"initiator_reference":"c2c_FNdDCRHzBQzL2mXAoCE8TvlI","customer":{"first_name":"Bench","last_name":"Holder","phone_number":"+251900006597"},"meta":{"source_card_number":"1001067780636219","destination_card_number":"1001307495024222"},"created_at":"2026-11-22T05:54:52.042Z","updated_at":"2026-11-22T05:54:52.042Z"}',
  ),
  subjectReference: `('c2c_' || :r || '_' || :client_id)`,
};

/**
 * A pgbench script of the payout statement itself, made from the text the app
 * compiles (so it cannot drift from it): what PostgreSQL alone can do, with no
 * Node.js at all. Variables: biz (business id), lo and hi (its card id range).
 */
export function pgbenchPayoutScript(): string {
  const statement = payoutStatements.withEvent();
  const sqlFor = statement.slots.map((slot) => {
    if ('value' in slot) return quote(slot.value);
    const expression = CARD_TO_CARD[slot.placeholder];
    if (expression === undefined) throw new Error(`the pgbench payout script has no value for placeholder ${slot.placeholder}`);
    return expression;
  });
  const text = statement.text.replace(/\$(\d+)/g, (_, n: string) => sqlFor[Number(n) - 1]);
  return [
    '\\set a random(:lo, :hi)',
    '\\set b :lo + (:a - :lo + random(1, :hi - :lo)) % (:hi - :lo + 1)',
    '\\set r random(1, 1000000000000)',
    `${text.trim()};`,
    '',
  ].join('\n');
}
