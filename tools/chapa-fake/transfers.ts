import { createHmac } from 'node:crypto';
import type { ChapaFake, FakeAnswer } from './core';

/**
 * Chapa's payout side: GET /banks, POST /transfers, GET /transfers/verify/{reference},
 * GET /balances, the payout webhooks and the server-approval call. Failure
 * switches by operation: banks, transfer, transfer_verify, balances.
 */

export interface FakeTransfer {
  reference: string;
  chapaReference: string;
  bankCode: number;
  bankName: string;
  accountNumber: string;
  accountName: string;
  /** As the merchant sent it, in currency units. */
  amount: string;
  currency: string;
  status: 'pending' | 'success' | 'failed' | 'cancelled';
  approval: number | null;
  createdAt: string;
  updatedAt: string;
}

/** The fields of the payments side's transactions this module reads. */
interface FakeTransactionLike {
  txRef: string;
  reference: string;
  kind: string;
  amount: string;
  currency: string;
  status: string;
  createdAt: string;
}

export interface TransferSwitches {
  /** auto: a transfer settles by itself after CHAPA_FAKE_TRANSFER_SETTLE_MS; manual: only POST /__fake/transfers/settle settles it. */
  settle: 'auto' | 'manual';
  /** When set, every transfer is first put to the merchant's approval URL, signed with this secret (hex HMAC-SHA256 of the body). */
  approval: { url: string; secret: string } | null;
  /**
   * Refuse the next transfers with this 400 message (as Chapa does for, say, an insufficient balance), after the gate
   * opens when one is named; with `amount`, only transfers of that amount, so another test's late retry cannot take the refusal.
   */
  refuse: { message: string; times: number; gate?: string; amount?: string } | null;
  /** Take the next transfers and then never answer: the merchant times out not knowing Chapa has them. */
  hangAfterAccept: number;
  /** Answer the next verify calls 404 even for transfers the fake has (Chapa's records lagging behind). */
  verifyNotFound: number;
  /** Transfers per page of GET /transfers (50), smaller to make a listing longer than the reader's page cap. */
  listPerPage: number;
}

/** The fake's bank list: one Chapa slug equal to ours (cbe), one found only by name (awash), Bank of Abyssinia missing. */
export const FAKE_BANKS = [
  { id: 946, slug: 'cbe', swift: 'CBETETAA', name: 'Commercial Bank of Ethiopia (CBE)', acct_length: 13, currency: 'ETB', is_mobilemoney: null, is_rtgs: null },
  { id: 656, slug: 'awash_bank', swift: 'AWINETAA', name: 'AWASH BANK', acct_length: 14, currency: 'ETB', is_mobilemoney: null, is_rtgs: 1 },
  { id: 880, slug: 'dashen', swift: 'DASHETAA', name: 'Dashen Bank', acct_length: 13, currency: 'ETB', is_mobilemoney: null, is_rtgs: 1 },
  { id: 855, slug: 'telebirr', swift: 'TELEBIRR', name: 'telebirr', acct_length: 10, currency: 'ETB', is_mobilemoney: 1, is_rtgs: null },
  { id: 266, slug: 'mpesa', swift: 'MPESA', name: 'M-Pesa', acct_length: 10, currency: 'ETB', is_mobilemoney: 1, is_rtgs: null },
  { id: 128, slug: 'cbebirr', swift: 'CBEBIRR', name: 'CBEBirr', acct_length: 10, currency: 'ETB', is_mobilemoney: 1, is_rtgs: null },
];

/** What the fake's merchant holds before any transfer, in currency units. */
const OPENING_BALANCES: Record<string, number> = { ETB: 1_000_000, USD: 10_000 };
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
const CHARGE = '0.00';

const failed = (status: number, message: unknown): FakeAnswer => ({ status, json: { message, status: 'failed', data: null } });
const now = () => new Date().toISOString();
const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : typeof v === 'number' ? String(v) : null);
const cents = (amount: string) => Math.round(Number(amount) * 100);

export function registerTransferRoutes(fake: ChapaFake): void {
  // Plain objects, not Maps: GET /__fake/state shows them as they are.
  const transfers = () => fake.store('transfers', () => ({}) as Record<string, FakeTransfer>);
  /** Every POST /transfers received, per reference, accepted or not: the exactly-once tests read it. */
  const received = () => fake.store('transferRequests', () => ({}) as Record<string, number>);
  const approvals = () => fake.store('approvals', () => [] as { reference: string; status: number | string }[]);
  const switches = () =>
    fake.store(
      'transferSwitches',
      (): TransferSwitches => ({ settle: 'auto', approval: null, refuse: null, hangAfterAccept: 0, verifyNotFound: 0, listPerPage: 50 }),
    );
  const settleMs = Number(process.env.CHAPA_FAKE_TRANSFER_SETTLE_MS ?? 300);
  fake.onReset(() => {
    for (const name of ['transfers', 'transferRequests', 'approvals', 'transferSwitches']) fake.stores.delete(name);
  });

  function eventPayload(t: FakeTransfer): Record<string, unknown> {
    return {
      type: 'Payout',
      account_name: t.accountName,
      account_number: t.accountNumber,
      bank_id: t.bankCode,
      bank_name: t.bankName,
      amount: t.amount,
      charge: CHARGE,
      currency: t.currency,
      status: t.status,
      reference: t.reference,
      chapa_reference: t.chapaReference,
      bank_reference: t.status === 'success' ? `BNK${t.chapaReference}` : null,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
    };
  }

  /** Ends a pending transfer and tells the merchant (payout.success, or Chapa's literal payout.failed/cancelled). */
  async function settle(t: FakeTransfer, status: 'success' | 'failed' | 'cancelled'): Promise<void> {
    if (t.status !== 'pending') return;
    const event = status === 'success' ? 'payout.success' : 'payout.failed/cancelled';
    if (status === 'success' && fake.switches.webhooks.early) {
      fake.sendWebhook(event, { ...eventPayload(t), status });
      await fake.settled();
    }
    t.status = status;
    t.updatedAt = now();
    if (!(status === 'success' && fake.switches.webhooks.early)) fake.sendWebhook(event, eventPayload(t));
  }

  /** Server approval: Chapa asks the merchant's approval URL; anything but 200 reverts the transfer. */
  async function approve(t: FakeTransfer, approval: NonNullable<TransferSwitches['approval']>): Promise<boolean> {
    const body = JSON.stringify({
      amount: t.amount,
      reference: t.reference,
      bank: t.bankName,
      account_name: t.accountName,
      account_number: t.accountNumber,
      currency: t.currency,
    });
    const signature = createHmac('sha256', approval.secret).update(body).digest('hex');
    let status: number | string;
    try {
      const res = await fetch(approval.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'chapa-signature': signature },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      status = res.status;
      await res.text().catch(() => '');
    } catch (err) {
      status = (err as Error).message;
    }
    approvals().push({ reference: t.reference, status });
    t.approval = typeof status === 'number' ? status : null;
    return status === 200;
  }

  async function proceed(t: FakeTransfer): Promise<void> {
    const approval = switches().approval;
    if (approval && !(await approve(t, approval))) return settle(t, 'cancelled');
    if (switches().settle === 'manual') return;
    await new Promise((r) => setTimeout(r, settleMs));
    // The sandbox rule of this app's test mode, kept for the fake: an account number ending in 0000 fails.
    await settle(t, t.accountNumber.endsWith('0000') ? 'failed' : 'success');
  }

  fake.route('GET', '/banks', 'banks', () => ({ status: 200, json: { message: 'Banks retrieved', data: FAKE_BANKS } }));

  fake.route('POST', '/transfers', 'transfer', async (req) => {
    const b = (req.body ?? {}) as Record<string, unknown>;
    const reference = text(b.reference);
    if (reference) received()[reference] = (received()[reference] ?? 0) + 1;
    const amount = text(b.amount);
    const currency = text(b.currency)?.toUpperCase();
    const accountNumber = text(b.account_number);
    const accountName = text(b.account_name);
    const bank = FAKE_BANKS.find((x) => String(x.id) === text(b.bank_code));
    const errors: Record<string, string[]> = {};
    if (!accountName) errors.account_name = ['The account name field is required.'];
    if (!accountNumber) errors.account_number = ['The account number field is required.'];
    if (!amount || !AMOUNT.test(amount) || Number(amount) <= 0) errors.amount = ['The amount must be a number greater than 0.'];
    if (!currency || !(currency in OPENING_BALANCES)) errors.currency = ['The selected currency is invalid.'];
    if (!bank) errors.bank_code = ['The selected bank code is invalid.'];
    if (!reference) errors.reference = ['The reference field is required.'];
    if (Object.keys(errors).length) return failed(400, errors);
    if (accountNumber!.length !== bank!.acct_length) return failed(400, `The account number must be ${bank!.acct_length} digits for ${bank!.name}.`);
    if (transfers()[reference!]) return failed(400, 'Transfer reference has been used before');
    const refuse = switches().refuse;
    if (refuse && refuse.times > 0 && (refuse.amount === undefined || Number(refuse.amount) === Number(amount))) {
      refuse.times -= 1;
      if (refuse.gate) await fake.gate(refuse.gate);
      return failed(400, refuse.message);
    }
    const t: FakeTransfer = {
      reference: reference!,
      chapaReference: fake.nextId('TRF'),
      bankCode: bank!.id,
      bankName: bank!.name,
      accountNumber: accountNumber!,
      accountName: accountName!,
      amount: amount!,
      currency: currency!,
      status: 'pending',
      approval: null,
      createdAt: now(),
      updatedAt: now(),
    };
    transfers()[t.reference] = t;
    void proceed(t).catch((err) => console.error('chapa-fake transfer:', err));
    if (switches().hangAfterAccept > 0) {
      switches().hangAfterAccept -= 1;
      // Never answered (the socket goes when the fake stops): the merchant cannot tell whether the transfer was taken.
      await new Promise(() => {});
    }
    // Chapa's documented answer: the reference as `data`, a string.
    return { status: 200, json: { message: 'Transfer Queued Successfully', status: 'success', data: t.chapaReference } };
  });

  fake.route('GET', '/transfers/verify/:reference', 'transfer_verify', (req) => {
    const t = transfers()[req.params.reference];
    if (!t) return failed(404, 'Transfer not found');
    if (switches().verifyNotFound > 0) {
      switches().verifyNotFound -= 1;
      return failed(404, 'Transfer not found');
    }
    const override = fake.switches.verifyOverride[t.reference] ?? {};
    return {
      status: 200,
      json: {
        message: 'Transfer details',
        status: 'success',
        data: {
          account_name: t.accountName,
          account_number: t.accountNumber,
          mobile: null,
          currency: override.currency ?? t.currency,
          amount: override.amount ?? Number(t.amount),
          charge: Number(CHARGE),
          mode: 'test',
          transfer_method: 'bank',
          narration: null,
          chapa_transfer_id: t.chapaReference,
          bank_code: t.bankCode,
          bank_name: t.bankName,
          cross_party_reference: null,
          ip_address: null,
          status: override.status ?? t.status,
          tx_ref: t.reference,
          created_at: t.createdAt,
          updated_at: t.updatedAt,
        },
      },
    };
  });

  // All Transfers: newest first, 50 a page (?page=N), with Laravel-style meta as Chapa's SDKs show it.
  fake.route('GET', '/transfers', 'transfers_list', (req) => {
    const all = Object.values(transfers()).reverse();
    const perPage = switches().listPerPage;
    const lastPage = Math.max(1, Math.ceil(all.length / perPage));
    const page = Math.min(Math.max(1, Number(req.query.get('page') ?? 1) || 1), lastPage);
    const data = all.slice((page - 1) * perPage, page * perPage).map((t) => ({
      account_name: t.accountName,
      account_number: t.accountNumber,
      currency: t.currency,
      amount: Number(t.amount),
      charge: Number(CHARGE),
      transfer_type: 'bank',
      chapa_reference: t.chapaReference,
      bank_code: t.bankCode,
      bank_name: t.bankName,
      bank_reference: t.status === 'success' ? `BNK${t.chapaReference}` : null,
      status: t.status,
      reference: t.reference,
      created_at: t.createdAt,
      updated_at: t.updatedAt,
    }));
    return {
      status: 200,
      json: {
        message: 'Transfers retrieved',
        status: 'success',
        data,
        meta: { current_page: page, last_page: lastPage, per_page: perPage, total: all.length },
      },
    };
  });

  // All Transactions (the payments side's store): what the merchant received, for reconciliation.
  fake.route('GET', '/transactions', 'transactions_list', () => {
    const txs = [...(fake.store('transactions', () => new Map<string, FakeTransactionLike>()) as Map<string, FakeTransactionLike>).values()].reverse();
    const transactions = txs.map((t) => ({
      status: t.status,
      ref_id: t.reference,
      tx_ref: t.txRef,
      type: t.kind === 'hosted' ? 'API' : 'Direct Charge',
      currency: t.currency,
      amount: t.amount,
      charge: CHARGE,
      created_at: t.createdAt,
    }));
    return {
      status: 200,
      json: {
        message: 'Transactions retrieved',
        status: 'success',
        data: { transactions, pagination: { current_page: 1, last_page: 1, per_page: transactions.length, total: transactions.length } },
      },
    };
  });

  fake.route('GET', '/balances', 'balances', () => {
    const data = Object.entries(OPENING_BALANCES).map(([currency, opening]) => {
      const mine = Object.values(transfers()).filter((t) => t.currency === currency);
      const out = (statuses: string[]) => mine.filter((t) => statuses.includes(t.status)).reduce((sum, t) => sum + cents(t.amount), 0);
      const available = opening * 100 - out(['pending', 'success']);
      const ledger = opening * 100 - out(['success']);
      return { currency, available_balance: available / 100, ledger_balance: ledger / 100 };
    });
    return { status: 200, json: { status: 'success', message: 'Balances retrieved', data } };
  });

  fake.controlRoute('POST', '/__fake/transfers/switches', (body) => {
    const b = (body ?? {}) as Partial<TransferSwitches>;
    Object.assign(switches(), {
      ...(b.settle === 'auto' || b.settle === 'manual' ? { settle: b.settle } : {}),
      ...(b.approval !== undefined ? { approval: b.approval } : {}),
      ...(b.refuse !== undefined ? { refuse: b.refuse } : {}),
      ...(typeof b.hangAfterAccept === 'number' ? { hangAfterAccept: b.hangAfterAccept } : {}),
      ...(typeof b.verifyNotFound === 'number' ? { verifyNotFound: b.verifyNotFound } : {}),
      ...(typeof b.listPerPage === 'number' && b.listPerPage >= 1 ? { listPerPage: Math.floor(b.listPerPage) } : {}),
    });
    return { status: 200, json: switches() };
  });

  fake.controlRoute('POST', '/__fake/transfers/settle', async (body) => {
    const b = (body ?? {}) as { reference?: string; status?: 'success' | 'failed' | 'cancelled' };
    const t = b.reference ? transfers()[b.reference] : undefined;
    if (!t || !b.status || !['success', 'failed', 'cancelled'].includes(b.status))
      return { status: 404, json: { message: 'no such pending transfer or status' } };
    await settle(t, b.status);
    return { status: 200, json: t };
  });

  fake.controlRoute('GET', '/__fake/transfers', () => ({
    status: 200,
    json: { transfers: transfers(), requests: received(), approvals: approvals(), switches: switches() },
  }));
}
