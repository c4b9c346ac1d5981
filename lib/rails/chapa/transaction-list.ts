import { parseMinorUnits, textField, type ChapaBody } from './chapa-answers';
import { callChapa } from './chapa-client';
import type { ChapaConfig } from './config';
import type { ListedPayment } from '../../providers/provider-records';

/** The statuses Chapa gives a transaction the customer paid. */
const PAID = new Set(['success', 'successful']);

const MAX_PAGES = 40;

/** GET /transactions (Chapa's All Transactions), every page: what Chapa says customers paid, for reconciliation. */
export async function listTransactions(
  config: ChapaConfig,
): Promise<{ ok: true; entries: ListedPayment[]; complete: boolean } | { ok: false; reason: string }> {
  const transactions: ListedPayment[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const outcome = await callChapa(config, { method: 'GET', path: `/transactions?page=${page}` });
    if (outcome.kind !== 'ok') return { ok: false, reason: outcome.kind === 'refused' ? outcome.message : outcome.reason };
    // The list is `data.transactions` in Chapa's docs, a bare `data` array in some answers: read both.
    const data = (outcome.body as { data?: unknown }).data;
    const list = Array.isArray(data)
      ? data
      : Array.isArray((data as ChapaBody | undefined)?.transactions)
        ? ((data as ChapaBody).transactions as unknown[])
        : [];
    for (const entry of list) {
      if (!entry || typeof entry !== 'object') continue;
      const e = entry as ChapaBody;
      const reference = textField(e, 'tx_ref') ?? textField(e, 'trans_id');
      if (!reference) continue;
      const status = (textField(e, 'status') ?? '').toLowerCase();
      transactions.push({
        reference,
        status,
        paid: PAID.has(status),
        amount: parseMinorUnits(e.amount),
        currency: textField(e, 'currency')?.toUpperCase() ?? null,
      });
    }
    const pagination = ((data as ChapaBody | undefined)?.pagination ?? (outcome.body as ChapaBody).meta) as ChapaBody | undefined;
    const last = Number(pagination?.last_page);
    if (!Number.isFinite(last) || page >= last || list.length === 0) return { ok: true, entries: transactions, complete: true };
  }
  return { ok: true, entries: transactions, complete: false };
}
