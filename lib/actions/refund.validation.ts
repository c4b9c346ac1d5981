import { z } from 'zod';
import { REFUND_REASON_MAX } from '../refunds/refund-request';
import { majorAmountText } from './amount.validation';
import { toMinorUnits } from '../amount-text';

/** The refund form of a payment's page; submission_id makes a double submission refund once. */
export const refundFormSchema = z.object({
  submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
  reference: z.string().trim().min(1).max(64),
  // Kept as typed (the form shows it back); the action turns it into minor units.
  amount: majorAmountText.refine((text) => toMinorUnits(text) > 0, { error: 'Enter an amount above zero.' }),
  reason: z
    .string()
    .trim()
    .max(REFUND_REASON_MAX, { error: `Keep the reason to ${REFUND_REASON_MAX} characters.` })
    .optional(),
});

export type RefundFormInput = z.input<typeof refundFormSchema>;
