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
