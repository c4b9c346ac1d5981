import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import type { DbOrTx } from '../db/client';
import { releaseHold } from '../holds/release-hold';
import { parsePayoutRequest } from '../payouts/payout-request';
import { splitAmounts } from '../payouts/payout-rules';
import type { Currency, Mode } from '../validation';

const SYSTEM: Actor = { type: 'system', id: null };

/** What one payout row takes from its source card, as quoted at preview: its amount, and its fee when the card pays it. */
export function rowDebit(row: { input: Record<string, unknown>; amount: number | string; fee: number | string | null }): { cardNumber: string; debit: number } {
  const { input, feeFromAmount } = parsePayoutRequest(row.input);
  return { cardNumber: input.card_number, debit: splitAmounts(Number(row.amount), Number(row.fee ?? 0), feeFromAmount).debit };
}

interface OpenHold {
  id: number;
  currency: Currency;
  card_number: string | null;
}

async function openHolds(tx: DbOrTx, scope: { businessId: number; mode: Mode; approvalReference: string }) {
  const { rows } = await tx.execute<OpenHold & Record<string, unknown>>(sql`
    SELECT h.id, h.currency, c.card_number FROM holds h LEFT JOIN cards c ON c.id = h.card_id
    WHERE h.business_id = ${scope.businessId} AND h.mode = ${scope.mode} AND h.purpose = ${scope.approvalReference} AND h.status = 'open'
    ORDER BY h.source_account_id`);
  return rows.map((h) => ({ ...h, id: Number(h.id) }));
}

/**
 * In the transaction that runs these rows of an approved upload, gives their cards back each row's share of the
 * upload's hold, just before the rows spend it: nothing else can take that money in between, and the rest of the
 * file's money stays held until its own rows run. A rolled-back run gives nothing back.
 */
export async function releaseRowsShare(
  tx: DbOrTx,
  scope: { businessId: number; mode: Mode; approvalReference: string; accounts: Map<Currency, number> },
  rows: { cardNumber: string; debit: number }[],
): Promise<void> {
  const shares = new Map<string, number>();
  for (const r of rows) shares.set(r.cardNumber, (shares.get(r.cardNumber) ?? 0) + r.debit);
  for (const hold of await openHolds(tx, scope)) {
    const part = hold.card_number === null ? 0 : (shares.get(hold.card_number) ?? 0);
    if (part <= 0) continue;
    await releaseHold(tx, { holdId: hold.id, actor: SYSTEM, businessAccountId: accountOf(scope.accounts, hold.currency), part });
  }
}

/** An upload that ended (done, or cancelled while running): whatever its hold still keeps (rows that failed before running) goes back. */
export async function releaseUploadRemainder(
  tx: DbOrTx,
  scope: { businessId: number; mode: Mode; approvalReference: string; accounts: Map<Currency, number> },
): Promise<void> {
  for (const hold of await openHolds(tx, scope)) {
    await releaseHold(tx, { holdId: hold.id, actor: SYSTEM, businessAccountId: accountOf(scope.accounts, hold.currency) });
  }
}

function accountOf(accounts: Map<Currency, number>, currency: Currency): number {
  const id = accounts.get(currency);
  if (id === undefined) throw new Error(`no business account resolved for ${currency}`);
  return id;
}
