import { ServiceError } from '../errors';
import type { Currency } from '../validation';

export interface BankOrWallet {
  slug: string;
  name: string;
  type: 'bank' | 'wallet';
  currencies: Currency[];
}

/** The slugs bank payouts and direct charges accept (GET /api/v1/banks). */
export const BANKS: readonly BankOrWallet[] = [
  { slug: 'cbe', name: 'Commercial Bank of Ethiopia', type: 'bank', currencies: ['ETB'] },
  { slug: 'awash', name: 'Awash Bank', type: 'bank', currencies: ['ETB'] },
  { slug: 'dashen', name: 'Dashen Bank', type: 'bank', currencies: ['ETB', 'USD'] },
  { slug: 'boa', name: 'Bank of Abyssinia', type: 'bank', currencies: ['ETB', 'USD'] },
  { slug: 'cac', name: 'CAC International Bank', type: 'bank', currencies: ['DJF', 'USD'] },
  { slug: 'stanbic-ug', name: 'Stanbic Bank Uganda', type: 'bank', currencies: ['UGX', 'USD'] },
  { slug: 'telebirr', name: 'telebirr', type: 'wallet', currencies: ['ETB'] },
  { slug: 'mpesa', name: 'M-PESA Ethiopia', type: 'wallet', currencies: ['ETB'] },
  { slug: 'cbebirr', name: 'CBE Birr', type: 'wallet', currencies: ['ETB'] },
  { slug: 'waafi', name: 'WAAFI', type: 'wallet', currencies: ['DJF', 'USD'] },
  { slug: 'mtn-momo-ug', name: 'MTN MoMo Uganda', type: 'wallet', currencies: ['UGX'] },
];

export const findBank = (slug: string) => BANKS.find((b) => b.slug === slug);

/**
 * How many digits each bank's and wallet's account numbers have, as Chapa's GET
 * /banks gives them (acct_length; tools/chapa-fake lists the same). Kept out of
 * BANKS, whose entries are GET /banks' answer. One Chapa does not list has no length here.
 */
const ACCOUNT_LENGTHS: Readonly<Record<string, number>> = { cbe: 13, awash: 14, dashen: 13, boa: 8, telebirr: 10, mpesa: 10, cbebirr: 10 };

export const accountLengthOf = (slug: string): number | null => ACCOUNT_LENGTHS[slug] ?? null;

/**
 * The account number rule of bank payouts in both modes: the sandbox checks it
 * with this list's lengths, live with the lengths Chapa's list gives, so an
 * account test mode takes live takes too. An account is digits only, of the
 * length the list gives; a bank's is digits only when no length is known; a
 * wallet the list gives no length for is not checked, as no list says what its
 * numbers look like.
 */
export function accountNumberRefusal(bank: Pick<BankOrWallet, 'name' | 'type'>, length: number | null, accountNumber: string): ServiceError | undefined {
  const digitsOnly = /^\d+$/.test(accountNumber);
  if (length === null ? digitsOnly || bank.type !== 'bank' : digitsOnly && accountNumber.length === length) return undefined;
  const words = length === null ? `${bank.name} account numbers are digits only.` : `${bank.name} account numbers have ${length} digits.`;
  return new ServiceError('payout_request_failed', words, { field: 'account_number' });
}
