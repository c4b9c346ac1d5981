import { z } from 'zod';
import { groupedUnitsText } from '../money-text';
import { parseAmountText, toMinorUnits } from '../amount-text';
import { MAX_AMOUNT, MIN_AMOUNT } from '../validation';

/** Amounts at or above this (in minor units: 100,000.00 of any currency) are sent only after the user confirms them. */
export const CONFIRM_AT_MINOR = 10_000_000;

/** An amount as typed in a form, in units of the card's currency, made canonical ("1,000" is "1000"). */
export const majorAmountText = z.string({ error: 'Enter an amount.' }).transform((raw, ctx) => {
  const parsed = parseAmountText(raw);
  if (parsed.ok) return parsed.text;
  ctx.addIssue({ code: 'custom', message: parsed.message });
  return z.NEVER;
});

/** The same, converted to minor units and held to the API's amount rules, said in currency units. */
export const amountText = majorAmountText.transform(toMinorUnits).pipe(
  z
    .number()
    .int()
    .min(MIN_AMOUNT, { error: `The smallest amount is ${groupedUnitsText(MIN_AMOUNT)}.` })
    .max(MAX_AMOUNT, { error: `The most one amount can be is ${groupedUnitsText(MAX_AMOUNT)}.` }),
);
