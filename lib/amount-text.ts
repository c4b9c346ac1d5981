import { groupedUnitsText } from './money-text';
import { MAX_AMOUNT } from './validation';

const GROUPED = /^\d{1,3}(?:([,\s])\d{3})?(?:\1\d{3})*(?:\.\d+)?$/;
const PLAIN = /^\d+(?:\.\d+)?$/;

/**
 * An amount as people type it, checked and made canonical ("1,000" and
 * "1 000" are "1000"; "25.5" stays "25.5"), or the reason it cannot be one.
 * Commas and spaces group thousands only: "25,50" is refused rather than guessed.
 */
export function parseAmountText(raw: string): { ok: true; text: string } | { ok: false; message: string } {
  const typed = raw.trim().replace(/[\u00a0\u202f]/g, ' ');
  if (typed === '') return { ok: false, message: 'Enter an amount.' };
  if (!PLAIN.test(typed) && !GROUPED.test(typed)) {
    if (/^\d+,\d{1,2}$/.test(typed)) return { ok: false, message: 'Use a dot for the decimals, e.g. 25.50.' };
    return { ok: false, message: 'Enter an amount like 25, 1,000 or 25.50.' };
  }
  const text = typed.replace(/[,\s]/g, '');
  const [whole, frac = ''] = text.split('.');
  if (frac.length > 2) return { ok: false, message: 'Use at most two decimals.' };
  const digits = whole.replace(/^0+(?=\d)/, '');
  // Compared as digit strings: a long typed number never becomes a float.
  const max = String(MAX_AMOUNT / 100);
  if (digits.length > max.length || (digits.length === max.length && digits > max) || (digits === max && Number(frac || 0) > 0)) {
    return { ok: false, message: `The most one amount can be is ${groupedUnitsText(MAX_AMOUNT)}.` };
  }
  return { ok: true, text: frac ? `${digits}.${frac}` : digits };
}

/** "25", "25.5" or "25.50" (separators already removed) to 2550 minor units by string arithmetic: a typed amount never becomes a float. */
export function toMinorUnits(text: string): number {
  const [whole, frac = ''] = text.trim().replace(/[,\s]/g, '').split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}
