import { z } from 'zod';
import { amountSchema } from '../validation';

/** "25", "25.5" or "25.50" to 2550 minor units by string arithmetic: a typed amount never becomes a float. */
export function toMinorUnits(text: string): number {
  const [whole, frac = ''] = text.trim().split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

/** An amount as typed in a form, in units of the card's currency. */
export const majorAmountText = z
  .string({ error: 'Enter an amount.' })
  .trim()
  .regex(/^\d{1,10}(\.\d{1,2})?$/, { error: 'Enter an amount like 25 or 25.50.' });

/** The same, converted to minor units and held to the API's amount rules. */
export const amountText = majorAmountText.transform(toMinorUnits).pipe(amountSchema);
