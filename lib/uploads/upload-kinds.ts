import type { Actor } from '../actor';
import { parseAmountText, toMinorUnits } from '../amount-text';
import type { BatchResult } from '../batches/batch-result';
import { createPayoutsBatch } from '../batches/create-payouts-batch';
import { issueCardsBatch } from '../batches/issue-cards-batch';
import { recordedItems } from '../batches/payout-batch-record';
import { normalizeCardNumber } from '../cards/card-number';
import { createCardSchema } from '../cards/create-card';
import { normaliseTypedPhone } from '../cards/phone';
import type { Db, Tx } from '../db/client';
import { CommittedPart } from '../db/commit-hooks';
import { ServiceError } from '../errors';
import { payoutParties } from '../payouts/payout-parties';
import { quotePayout } from '../payouts/payout-quote';
import { type PayoutRequest, parsePayoutRequest } from '../payouts/payout-request';
import { type Currency, type Mode, parseInput } from '../validation';
import { looksLikeFormula } from './parse-csv';

export type UploadKind = 'cards' | 'payouts';

interface RowCheckContext {
  db: Db;
  businessId: number;
  mode: Mode;
  /** The business's country: a phone number is read as the new-card form reads it. */
  country: string;
  /** Keys already seen in this file (a second card for the same phone and currency), with the line that had them. */
  seen: Map<string, number>;
}

/** A row that passed its checks: the body the core takes, and what it moves. */
interface CheckedRow {
  input: Record<string, unknown>;
  currency: Currency | null;
  amount: number | null;
  fee: number | null;
}

export interface UploadKindDef {
  columns: readonly string[];
  required: readonly string[];
  /** The row as the core will be given it, or why it cannot be. */
  check: (ctx: RowCheckContext, cells: Record<string, string>, line: number) => Promise<CheckedRow>;
  /** A kept row as its batch core takes it (parsed again: a rule may have changed since the preview). */
  parse: (input: Record<string, unknown>) => unknown;
  /** Runs parsed rows, in order, through the batch core the API's batch calls use (one chunk of them: one transaction). */
  runBatch: (
    db: Db,
    opts: { businessId: number; mode: Mode; actor: Actor; beforeEachChunk?: (tx: Tx, items: unknown[]) => Promise<void>; lockAlso?: number[] },
    items: unknown[],
  ) => Promise<BatchResult<unknown>[]>;
  /**
   * What the batch's chunk transaction committed, item by item, read from the value it returns (its resume
   * record): what each row made, or its refusal; undefined for any other transaction.
   */
  committed: (result: unknown) => RowOutcome[] | undefined;
}

/** A row's outcome in the transaction that ran it: what it made (a card number, or a payout's id) or why it was refused. */
type RowOutcome = { reference?: string; payoutId?: number } | { error: ServiceError };

const rowError = (field: string, message: string) => new ServiceError('validation_error', { [field]: message });

/** Every cell is held to the same rule: text a spreadsheet would run is refused, so no formula travels into a card or a results file. */
function refuseFormulas(cells: Record<string, string>) {
  if (cells[''] !== undefined) throw rowError('row', 'The row has more cells than the header line.');
  for (const [column, value] of Object.entries(cells)) {
    if (looksLikeFormula(value)) throw rowError(column, `${column} starts with "${value[0]}" like a spreadsheet formula; remove it.`);
  }
}

const present = (cells: Record<string, string>) => Object.fromEntries(Object.entries(cells).filter(([, v]) => v !== ''));

const cards: UploadKindDef = {
  columns: ['phone_number', 'currency', 'first_name', 'last_name'],
  required: ['phone_number', 'currency'],
  async check(ctx, cells, line) {
    refuseFormulas(cells);
    const given = present(cells);
    const input = parseInput(createCardSchema, { ...given, currency: given.currency?.toUpperCase() });
    const phone = normaliseTypedPhone(input.phone_number, ctx.country);
    const key = `${phone.e164}|${input.currency}`;
    const earlier = ctx.seen.get(key);
    if (earlier !== undefined) throw new ServiceError('card_exists', `Line ${earlier} already asks for a ${input.currency} card for this phone number.`);
    ctx.seen.set(key, line);
    return { input: { ...input, phone_number: phone.e164 }, currency: input.currency, amount: null, fee: null };
  },
  parse: (input) => parseInput(createCardSchema, input),
  runBatch: (db, { businessId, mode, actor }, items) => issueCardsBatch(db, { businessId, mode, actor, items: items as never }),
  // The card batch's one transaction returns each item's card number or refusal.
  committed: (result) =>
    Array.isArray(result) ? (result as BatchResult<string>[]).map((r) => (r.ok ? { reference: r.value } : { error: r.error })) : undefined,
};

const payouts: UploadKindDef = {
  columns: ['card_number', 'amount', 'destination_card_number', 'merchant_id', 'bank_slug', 'account_number', 'account_name', 'charge_payer'],
  required: ['card_number', 'amount'],
  async check(ctx, cells) {
    refuseFormulas(cells);
    const given: Record<string, unknown> = present(cells);
    const amount = parseAmountText(cells.amount ?? '');
    if (!amount.ok) throw rowError('amount', `${amount.message} Amounts are in currency units (25.50).`);
    given.amount = toMinorUnits(amount.text);
    for (const field of ['card_number', 'destination_card_number'] as const) {
      if (typeof given[field] === 'string') given[field] = normalizeCardNumber(given[field] as string) ?? given[field];
    }
    const request = parsePayoutRequest(given);
    const { type, input } = request;
    const numbers = type === 'card_to_card' ? [input.card_number, input.destination_card_number] : [input.card_number];
    const { rule, cards } = await payoutParties(ctx.db, ctx.businessId, ctx.mode, type, numbers, false);
    const source = cards.find((c) => c.card_number === input.card_number);
    const quote = quotePayout({
      businessId: ctx.businessId,
      type,
      amount: input.amount,
      payer: request,
      rule,
      source,
      destinationCard: type === 'card_to_card' ? { card: cards.find((c) => c.card_number === input.destination_card_number) } : undefined,
      bankSlug: type === 'bank' ? input.bank_slug : undefined,
      accountNumber: type === 'bank' ? input.account_number : undefined,
    });
    if (quote.refusals.length > 0) throw quote.refusals[0];
    return { input: given, currency: source!.currency, amount: input.amount, fee: quote.fee };
  },
  parse: (input) => parsePayoutRequest(input),
  runBatch: (db, opts, items) => createPayoutsBatch(db, { ...opts, items: items as PayoutRequest[] }),
  // Each chunk's transaction returns the record the API batch keeps with its Idempotency-Key to resume from.
  committed: (result) =>
    result instanceof CommittedPart ? recordedItems(result.part)?.map((r) => ('payoutId' in r ? { payoutId: r.payoutId } : { error: r.error })) : undefined,
};

export const UPLOAD_KINDS: Record<UploadKind, UploadKindDef> = { cards, payouts };

export const isUploadKind = (value: string): value is UploadKind => value === 'cards' || value === 'payouts';

/** A core refusal as one line for a person: the spec's title, then the detail (or each field's message). */
export function errorText(err: ServiceError): string {
  if (typeof err.detail === 'string') return err.detail === err.title ? err.title : `${err.title}: ${err.detail}`;
  return `${err.title}: ${Object.entries(err.detail)
    .map(([field, message]) => `${field}: ${message}`)
    .join('; ')}`;
}
