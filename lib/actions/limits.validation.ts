import { z } from 'zod';
import { currencySchema } from '../validation';
import { amountText } from './amount.validation';

/** A limit as typed, in currency units: empty is no limit. */
const limitText = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const typed = raw?.trim() ?? '';
    if (typed === '') return null;
    const parsed = amountText.safeParse(typed);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message });
    return z.NEVER;
  });

export const limitsFormSchema = z.object({
  currency: currencySchema,
  max_payout: limitText,
  daily_payout: limitText,
  max_card_balance: limitText,
  spend_code_over: limitText,
});

export type LimitsFormInput = z.input<typeof limitsFormSchema>;
