import { z } from 'zod';
import { MAX_AMOUNT } from '../validation';

/** The longest reason a refund keeps (the dashboard form holds to it too). */
export const REFUND_REASON_MAX = 200;

/** The body of POST /card/payments/{reference}/refund; both fields optional (no amount: what is left to refund). */
export const refundRequestSchema = z.object({
  amount: z
    .number({ error: 'amount must be an integer number of minor units.' })
    .int({ error: 'amount must be an integer number of minor units.' })
    .min(1, { error: 'amount must be at least 1 minor unit.' })
    .max(MAX_AMOUNT, { error: `amount must be at most ${MAX_AMOUNT} minor units.` })
    .optional(),
  reason: z
    .string({ error: 'reason must be a string.' })
    .trim()
    .max(REFUND_REASON_MAX, { error: `reason must be at most ${REFUND_REASON_MAX} characters.` })
    .optional(),
});
