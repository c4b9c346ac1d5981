import { sql } from 'drizzle-orm';
import type { Actor } from '../actor';
import type { Db, DbOrTx } from '../db/client';
import { releaseHold } from '../holds/release-hold';
import { businessAccountId } from '../ledger/accounts';
import type { Currency, Mode } from '../validation';
import type { ApprovalRow } from './approval-request';

/** The business account of each currency a request holds money in: where a hold goes back when its card was cancelled meanwhile. */
export type RequestAccounts = Map<Currency, number>;

/**
 * Resolved before the request's transaction, as shared accounts always are: the request's currency, and for an
 * upload the currency of each hold it placed (one per source card).
 */
export async function requestAccounts(db: Db, r: { business_id: number; mode: Mode; reference: string; currency: Currency | null }): Promise<RequestAccounts> {
  const { rows } = await db.execute<{ currency: Currency }>(sql`
    SELECT DISTINCT currency FROM holds WHERE business_id = ${r.business_id} AND mode = ${r.mode} AND purpose = ${r.reference}`);
  const currencies = new Set<Currency>([...(r.currency ? [r.currency] : []), ...rows.map((h) => h.currency)]);
  const accounts: RequestAccounts = new Map();
  for (const c of currencies) accounts.set(c, await businessAccountId(db, Number(r.business_id), r.mode, c));
  return accounts;
}

/**
 * Gives a claimed request's held money back, in the claim's transaction. A single operation's one hold: false
 * when it is no longer held (its card expired and took it). An upload's holds, one per source card: each still
 * open is released (one whose card expired went with the card; that card's rows fail when they run).
 */
export async function releaseRequestMoney(tx: DbOrTx, r: ApprovalRow, actor: Actor, accounts: RequestAccounts): Promise<boolean> {
  const accountOf = (currency: Currency) => {
    const id = accounts.get(currency);
    if (id === undefined) throw new Error(`no business account resolved for ${currency} of ${r.reference}`);
    return id;
  };
  if (r.hold_id !== null) return (await releaseHold(tx, { holdId: Number(r.hold_id), actor, businessAccountId: accountOf(r.currency!) })) !== null;
  const { rows } = await tx.execute<{ id: number; currency: Currency }>(sql`
    SELECT id, currency FROM holds WHERE business_id = ${r.business_id} AND mode = ${r.mode} AND purpose = ${r.reference} AND status = 'open'
    ORDER BY source_account_id`);
  for (const h of rows) await releaseHold(tx, { holdId: Number(h.id), actor, businessAccountId: accountOf(h.currency) });
  return true;
}
