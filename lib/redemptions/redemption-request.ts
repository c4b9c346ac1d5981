import { z } from 'zod';
import { locationIdSchema } from '../locations/location-request';
import { MAX_AMOUNT } from '../validation';

/** The longest merchant_reference a redemption keeps (the till's receipt or order number). */
export const MERCHANT_REFERENCE_MAX = 100;

/** The body of POST /card/{card_number}/redemptions. */
export const redemptionRequestSchema = z.object({
  amount: z
    .number({ error: (iss) => (iss.input === undefined ? 'amount is required.' : 'amount must be an integer number of minor units.') })
    .int({ error: 'amount must be an integer number of minor units.' })
    .min(1, { error: 'amount must be at least 1 minor unit.' })
    .max(MAX_AMOUNT, { error: `amount must be at most ${MAX_AMOUNT} minor units.` }),
  merchant_reference: z
    .string({ error: 'merchant_reference must be a string.' })
    .trim()
    .max(MERCHANT_REFERENCE_MAX, { error: `merchant_reference must be at most ${MERCHANT_REFERENCE_MAX} characters.` })
    .optional(),
  /** The branch it happened at (one of the business's locations); a cashier's is always their own. */
  location_id: locationIdSchema.optional(),
});

export type RedemptionRequest = z.output<typeof redemptionRequestSchema>;
