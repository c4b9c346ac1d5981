import { parseMinorUnits, textField, toMajorUnits, type ChapaBody } from './chapa-answers';
import { callChapa, type ChapaOutcome } from './chapa-client';
import type { ChapaConfig } from './config';
import type { ListedTransfer, ProviderBalance } from '../../providers/provider-records';

export interface TransferRequest {
  reference: string;
  bankCode: string;
  accountNumber: string;
  accountName: string;
  /** Minor units: what the destination receives. */
  amount: number;
  currency: string;
}

/** POST /transfers: Chapa queues the transfer (and may ask our approval route) or refuses it. */
export function requestTransfer(config: ChapaConfig, t: TransferRequest): Promise<ChapaOutcome> {
  // bank_code is a number in Chapa's examples and SDKs; a code that is not all digits is sent as Chapa gave it.
  const bankCode = /^\d{1,15}$/.test(t.bankCode) ? Number(t.bankCode) : t.bankCode;
  return callChapa(config, {
    method: 'POST',
    path: '/transfers',
    body: {
      account_name: t.accountName,
      account_number: t.accountNumber,
      amount: toMajorUnits(t.amount),
      currency: t.currency,
      reference: t.reference,
      bank_code: bankCode,
    },
  });
}

export type TransferState = 'success' | 'failed' | 'pending';

/** What GET /transfers/verify/{reference} says, strictly: a state we cannot read is never success or failure. */
export type TransferCheck =
  | { kind: 'found'; state: TransferState; amount: number | null; currency: string | null; status: string; chapaReference: string | null }
  | { kind: 'unreadable'; reason: string }
  | { kind: 'not_found' }
  | { kind: 'unavailable'; reason: string };

const SUCCESS = new Set(['success', 'successful', 'completed']);
const FAILED = new Set(['failed', 'failure', 'cancelled', 'canceled', 'failed/cancelled', 'reverted', 'reversed', 'rejected', 'declined']);
const PENDING = new Set(['pending', 'processing', 'queued', 'approved', 'initiated', 'ongoing', 'in progress', 'in_progress']);

/** A transfer's status word (a verify answer's or a webhook's) as one of ours, or null when it is none we know. */
export function transferState(status: unknown): TransferState | null {
  if (typeof status !== 'string') return null;
  const s = status.trim().toLowerCase();
  return SUCCESS.has(s) ? 'success' : FAILED.has(s) ? 'failed' : PENDING.has(s) ? 'pending' : null;
}

/** Chapa says "not found" for a reference it never took as a 404, or as a 400 whose message says so. */
function saysNotFound(outcome: Extract<ChapaOutcome, { kind: 'refused' }>): boolean {
  if (outcome.httpStatus === 404) return true;
  return outcome.httpStatus === 400 && /not\s*found|does not exist|no (such )?transfer/i.test(outcome.message);
}

export async function verifyTransfer(config: ChapaConfig, reference: string): Promise<TransferCheck> {
  const outcome = await callChapa(config, { method: 'GET', path: `/transfers/verify/${encodeURIComponent(reference)}` });
  if (outcome.kind === 'unavailable') return { kind: 'unavailable', reason: outcome.reason };
  if (outcome.kind === 'refused') {
    if (saysNotFound(outcome)) return { kind: 'not_found' };
    // A refusal that does not say "not found" (a revoked key, say) must not let us ask again as if it were.
    return { kind: 'unavailable', reason: `verify refused (${outcome.httpStatus}): ${outcome.message}` };
  }
  return readVerifiedTransfer(outcome.body, reference);
}

export function readVerifiedTransfer(body: ChapaBody, reference: string): TransferCheck {
  const data = (body as { data?: unknown }).data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return { kind: 'unreadable', reason: 'verify answered without data' };
  const d = data as ChapaBody;
  const ref = textField(d, 'tx_ref') ?? textField(d, 'reference');
  if (ref !== null && ref !== reference) return { kind: 'unreadable', reason: `verify answered for another reference ${ref}` };
  const status = textField(d, 'status') ?? '';
  const state = transferState(status);
  if (!state) return { kind: 'unreadable', reason: `verify answered an unknown status ${JSON.stringify(d.status)}` };
  return {
    kind: 'found',
    state,
    amount: parseMinorUnits(d.amount),
    currency: textField(d, 'currency')?.toUpperCase() ?? null,
    status: status.toLowerCase(),
    chapaReference: textField(d, 'chapa_transfer_id') ?? textField(d, 'chapa_reference'),
  };
}

/** GET /balances: one entry per currency (a single object is read as a list of one). */
export async function fetchBalances(config: ChapaConfig): Promise<{ ok: true; balances: ProviderBalance[] } | { ok: false; reason: string }> {
  const outcome = await callChapa(config, { method: 'GET', path: '/balances' });
  if (outcome.kind !== 'ok') return { ok: false, reason: outcome.kind === 'refused' ? outcome.message : outcome.reason };
  const raw = (outcome.body as { data?: unknown }).data;
  const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' ? [raw] : [];
  const balances: ProviderBalance[] = [];
  for (const entry of list) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as ChapaBody;
    const currency = textField(e, 'currency')?.toUpperCase();
    if (!currency) continue;
    balances.push({ currency, available: parseMinorUnits(e.available_balance), ledger: parseMinorUnits(e.ledger_balance) });
  }
  return { ok: true, balances };
}

/** Pages read at most: a listing longer than this is reported as incomplete rather than read without end. */
const MAX_PAGES = 40;

/** GET /transfers, every page (Chapa's All Transfers): what Chapa holds, for reconciliation. */
export async function listTransfers(config: ChapaConfig): Promise<{ ok: true; entries: ListedTransfer[]; complete: boolean } | { ok: false; reason: string }> {
  const transfers: ListedTransfer[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const outcome = await callChapa(config, { method: 'GET', path: `/transfers?page=${page}` });
    if (outcome.kind !== 'ok') return { ok: false, reason: outcome.kind === 'refused' ? outcome.message : outcome.reason };
    const data = (outcome.body as { data?: unknown }).data;
    for (const entry of Array.isArray(data) ? data : []) {
      if (!entry || typeof entry !== 'object') continue;
      const e = entry as ChapaBody;
      const reference = textField(e, 'reference') ?? textField(e, 'tx_ref');
      if (!reference) continue;
      const status = (textField(e, 'status') ?? '').toLowerCase();
      transfers.push({
        reference,
        state: transferState(status),
        status,
        amount: parseMinorUnits(e.amount),
        currency: textField(e, 'currency')?.toUpperCase() ?? null,
      });
    }
    const meta = (outcome.body as { meta?: unknown }).meta as ChapaBody | undefined;
    const last = Number(meta?.last_page);
    if (!Number.isFinite(last) || page >= last || !Array.isArray(data) || data.length === 0) return { ok: true, entries: transfers, complete: true };
  }
  return { ok: true, entries: transfers, complete: false };
}
