import { z } from 'zod';
import { EXPIRY_POLICIES, MAX_EXPIRY_MONTHS } from './card-expiry';

/** The expiry policy as the settings form and setExpiryPolicy take it: months only when cards expire. */
export const expiryPolicySchema = z
  .object({
    policy: z.enum(EXPIRY_POLICIES, { error: 'Choose never, after issue or after the last load.' }),
    months: z.coerce
      .number({ error: 'Give a whole number of months.' })
      .int({ error: 'Give a whole number of months.' })
      .min(1, { error: 'At least 1 month.' })
      .max(MAX_EXPIRY_MONTHS, { error: `At most ${MAX_EXPIRY_MONTHS} months.` })
      .optional(),
  })
  .refine((v) => v.policy === 'never' || v.months !== undefined, { error: 'Give the number of months.', path: ['months'] });

export type ExpiryPolicyInput = z.input<typeof expiryPolicySchema>;

/** A later expiry for one card: the new last day (in the business's time zone) and why. */
export const extendExpirySchema = z.object({
  card_number: z.string().trim().min(1).max(32),
  expires_on: z.iso.date({ error: 'Give the new expiry date as YYYY-MM-DD.' }),
  reason: z
    .string({ error: 'Say why the card is extended.' })
    .trim()
    .min(3, { error: 'Say why the card is extended.' })
    .max(200, { error: 'The reason must be at most 200 characters.' }),
});

export type ExtendExpiryInput = z.input<typeof extendExpirySchema>;
