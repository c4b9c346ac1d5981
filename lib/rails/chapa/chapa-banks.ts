import { ServiceError } from '../../errors';
import { accountNumberRefusal, findBank } from '../../providers/banks';
import { textField, type ChapaBody } from './chapa-answers';
import { callChapa } from './chapa-client';
import type { ChapaConfig } from './config';

/** One entry of Chapa's GET /banks, as far as a transfer needs it. */
export interface ChapaBank {
  /** The `bank_code` of POST /transfers (Chapa's `id`). */
  code: string;
  slug: string | null;
  name: string;
  /** The account number's length, when Chapa gives one. */
  accountLength: number | null;
  currency: string | null;
}

export function readBanks(body: ChapaBody): ChapaBank[] {
  const data = body.data;
  if (!Array.isArray(data)) return [];
  const banks: ChapaBank[] = [];
  for (const entry of data) {
    if (!entry || typeof entry !== 'object') continue;
    const e = entry as ChapaBody;
    const code = textField(e, 'id') ?? textField(e, 'bank_code') ?? textField(e, 'code');
    const name = textField(e, 'name');
    if (!code || !name) continue;
    const length = Number(e.acct_length);
    banks.push({
      code,
      slug: textField(e, 'slug'),
      name,
      accountLength: Number.isInteger(length) && length > 0 ? length : null,
      currency: textField(e, 'currency')?.toUpperCase() ?? null,
    });
  }
  return banks;
}

const same = (a: string | null | undefined, b: string) => a?.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Our bank slug's entry in Chapa's list: Chapa's slug equal to ours, failing
 * that Chapa's name equal to our bank's name (case-insensitive both). A list
 * with entries per currency is narrowed to the payout's currency first.
 */
export function matchBank(banks: readonly ChapaBank[], slug: string, currency: string): ChapaBank | undefined {
  const inCurrency = banks.filter((b) => b.currency === null || b.currency === currency);
  const name = findBank(slug)?.name;
  return inCurrency.find((b) => same(b.slug, slug)) ?? (name ? inCurrency.find((b) => same(b.name, name)) : undefined);
}

/** How long a fetched list is used before it is fetched again; a slug missing from an older list than this refetches at once. */
const FRESH_MS = 10 * 60_000;
const MISS_REFETCH_MS = 60_000;

let cache: { at: number; baseUrl: string; banks: ChapaBank[] } | undefined;
let inFlight: Promise<ChapaBank[]> | undefined;

async function fetchBanks(config: ChapaConfig): Promise<ChapaBank[]> {
  const outcome = await callChapa(config, { method: 'GET', path: '/banks' });
  if (outcome.kind !== 'ok') {
    throw new ServiceError('failed_to_initiate_payout', "Chapa's list of banks could not be read; nothing was debited. Try again shortly.");
  }
  const banks = readBanks(outcome.body);
  cache = { at: Date.now(), baseUrl: config.baseUrl, banks };
  return banks;
}

async function banksOlderThan(config: ChapaConfig, maxAgeMs: number): Promise<ChapaBank[]> {
  if (cache && cache.baseUrl === config.baseUrl && Date.now() - cache.at < maxAgeMs) return cache.banks;
  // One fetch at a time: a burst of payouts waits for the same answer.
  inFlight ??= fetchBanks(config).finally(() => {
    inFlight = undefined;
  });
  return inFlight;
}

/** Chapa's bank list, fetched when older than its freshness (a batch warms it before taking its locks). */
export async function chapaBanks(config: ChapaConfig): Promise<void> {
  await banksOlderThan(config, FRESH_MS);
}

/**
 * The Chapa bank a payout to our slug goes to, checked before any debit:
 * a bank Chapa does not list is 400 Invalid bank slug, an account number
 * against the bank's rule (accountNumberRefusal) 400 Payout request failed.
 */
export async function chapaBankFor(config: ChapaConfig, slug: string, currency: string, accountNumber: string): Promise<ChapaBank> {
  let bank = matchBank(await banksOlderThan(config, FRESH_MS), slug, currency);
  if (!bank) bank = matchBank(await banksOlderThan(config, MISS_REFETCH_MS), slug, currency);
  if (!bank) throw new ServiceError('invalid_bank_slug', `Chapa does not list the bank ${slug} for ${currency} payouts.`, { field: 'bank_slug' });
  // Our name and type for the bank, so live says what the sandbox says; Chapa's list gives the length.
  const ours = findBank(slug) ?? { name: bank.name, type: 'bank' as const };
  const refused = accountNumberRefusal(ours, bank.accountLength, accountNumber);
  if (refused) throw refused;
  return bank;
}
