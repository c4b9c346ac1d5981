import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import type { Mode } from '../validation';

export interface LedgerTrailEntry {
  transactionId: number;
  kind: string;
  createdAt: string;
  actor: string;
  account: string;
  amount: number;
  currency: string;
  /** Only for the business's own accounts: another business's card balance is not ours to show. */
  balanceAfter: number | null;
}

const ACCOUNT_LABELS: Record<string, string> = {
  'provider:fee-revenue': 'Service fee (provider)',
  'clearing:bank': 'Bank clearing',
  'clearing:wallet': 'Wallet clearing',
  'clearing:checkout': 'Checkout clearing',
  'clearing:deposits': 'Deposits clearing',
  'clearing:refunds:checkout': 'Checkout refunds clearing',
  'clearing:refunds:wallet': 'Wallet refunds clearing',
};

/** The ledger transactions written under a payout's or payment's reference (a payment's refunds included), each entry on its own line. */
export async function ledgerTrail(db: DbOrTx, businessId: number, mode: Mode, reference: string): Promise<LedgerTrailEntry[]> {
  const result = await db.execute<{
    transaction_id: number;
    kind: string;
    created_at: string;
    actor_type: string;
    actor_id: string | null;
    actor_email: string | null;
    account_kind: string;
    account_name: string;
    account_business_id: number | null;
    account_business_name: string | null;
    card_number: string | null;
    amount: number;
    currency: string;
    balance_after: number;
  }>(sql`
    SELECT t.id AS transaction_id, t.kind, t.created_at, t.actor_type, t.actor_id, u.email AS actor_email,
           a.kind AS account_kind, a.name AS account_name, a.business_id AS account_business_id, ab.name AS account_business_name, c.card_number,
           e.amount, e.currency, e.balance_after
    FROM ledger_transactions t
    JOIN ledger_entries e ON e.transaction_id = t.id
    JOIN ledger_accounts a ON a.id = e.account_id
    LEFT JOIN cards c ON c.account_id = a.id
    LEFT JOIN businesses ab ON ab.id = a.business_id AND a.kind = 'business'
    LEFT JOIN users u ON t.actor_type = 'user' AND u.id::text = t.actor_id AND u.business_id = ${businessId}
    WHERE t.mode = ${mode} AND t.business_id = ${businessId} AND (t.reference = ${reference} OR t.reference IN (
      SELECT r.reference FROM refunds r JOIN payments p ON p.id = r.payment_id
      WHERE p.link_reference = ${reference} AND p.business_id = ${businessId} AND p.mode = ${mode}))
    ORDER BY t.id, e.amount, e.id`);
  return result.rows.map((r) => {
    const own = Number(r.account_business_id) === businessId;
    let account = ACCOUNT_LABELS[r.account_name.replace(/#\d+$/, '')] ?? r.account_name;
    if (r.account_kind === 'card') account = own ? `Card ${r.card_number}` : `Card •••• ${(r.card_number ?? '').slice(-4)} (another business)`;
    else if (r.account_kind === 'business') account = own ? 'Business balance' : `${r.account_business_name ?? 'Another business'} (another business)`;
    return {
      transactionId: Number(r.transaction_id),
      kind: r.kind,
      createdAt: new Date(r.created_at).toISOString(),
      actor:
        r.actor_type === 'user'
          ? (r.actor_email ?? `dashboard user ${r.actor_id}`)
          : r.actor_type === 'api_key'
            ? 'API key'
            : r.actor_type === 'admin'
              ? 'Provider back office'
              : 'the service',
      account,
      amount: Number(r.amount),
      currency: r.currency,
      balanceAfter: own ? Number(r.balance_after) : null,
    };
  });
}
