import { z } from 'zod';
import { ADJUSTMENT_DIRECTIONS, ADJUSTMENT_REASONS } from '../adjustments/adjustment-reasons';
import { CURRENCIES } from '../validation';
import { amountText } from './amount.validation';
import { cardRefSchema } from './cards.validation';

/** The approval forms' schemas: the browser validates with them and the server actions parse with them again. */

export const NOTE_MAX = 500;
const note = z
  .string()
  .trim()
  .max(NOTE_MAX, { error: `Keep the note to ${NOTE_MAX} characters or fewer.` })
  .optional();

export const decideApprovalSchema = z.object({
  reference: z.string({ error: 'reference is required.' }).trim().min(1).max(64),
  note,
});

export const adjustmentFormSchema = z.object({
  card_number: cardRefSchema.shape.card_number,
  direction: z.enum(ADJUSTMENT_DIRECTIONS, { error: 'Choose whether to add to the card or take from it.' }),
  amount: amountText,
  reason_code: z.enum(ADJUSTMENT_REASONS, { error: 'Choose a reason.' }),
  note,
  submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
});
export type AdjustmentForm = z.input<typeof adjustmentFormSchema>;
export type AdjustmentValues = z.output<typeof adjustmentFormSchema>;

/** An empty amount removes the currency's threshold. */
export const thresholdFormSchema = z.object({
  currency: z.enum(CURRENCIES, { error: `Choose one of ${CURRENCIES.join(', ')}.` }),
  amount: z.string({ error: 'Enter an amount, or leave it empty for none.' }).trim().max(40),
});
