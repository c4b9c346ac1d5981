import { z } from 'zod';
import { currencySchema } from '../validation';
import { amountText } from './amount.validation';

/** A limit as typed, in currency units: empty is no limit. */
const limitText = z
  .string()
  .optional()
  .transform((raw) => raw?.trim() ?? '')
  .pipe(z.union([z.literal('').transform(() => null), amountText]));

export const limitsFormSchema = z.object({
  currency: currencySchema,
  max_payout: limitText,
  daily_payout: limitText,
  max_card_balance: limitText,
});

export type LimitsFormInput = z.input<typeof limitsFormSchema>;
