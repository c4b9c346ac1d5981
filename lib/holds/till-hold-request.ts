import { z } from 'zod';
import { MERCHANT_REFERENCE_MAX } from '../redemptions/redemption-request';
import { locationIdSchema } from '../locations/location-request';
import { MAX_AMOUNT } from '../validation';

const HOLD_DEFAULT_SECONDS = 7 * 24 * 60 * 60;
const HOLD_MAX_SECONDS = 30 * 24 * 60 * 60;

const minorUnits = (name: string) =>
  z
    .number({ error: (iss) => (iss.input === undefined ? `${name} is required.` : `${name} must be an integer number of minor units.`) })
    .int({ error: `${name} must be an integer number of minor units.` })
    .min(1, { error: `${name} must be at least 1 minor unit.` })
    .max(MAX_AMOUNT, { error: `${name} must be at most ${MAX_AMOUNT} minor units.` });

/** The body of POST /card/{card_number}/holds. */
export const holdRequestSchema = z.object({
  amount: minorUnits('amount'),
  expires_in_seconds: z
    .number({ error: 'expires_in_seconds must be a whole number of seconds.' })
    .int({ error: 'expires_in_seconds must be a whole number of seconds.' })
    .min(1, { error: 'expires_in_seconds must be at least 1.' })
    .max(HOLD_MAX_SECONDS, { error: `expires_in_seconds must be at most ${HOLD_MAX_SECONDS} (30 days).` })
    .default(HOLD_DEFAULT_SECONDS),
  merchant_reference: z
    .string({ error: 'merchant_reference must be a string.' })
    .trim()
    .max(MERCHANT_REFERENCE_MAX, { error: `merchant_reference must be at most ${MERCHANT_REFERENCE_MAX} characters.` })
    .optional(),
  location_id: locationIdSchema.optional(),
});

export type HoldRequest = z.output<typeof holdRequestSchema>;

/** The body of POST /card/holds/{hold_reference}/capture: no amount captures the whole hold. */
export const captureRequestSchema = z.object({ amount: minorUnits('amount').optional(), location_id: locationIdSchema.optional() });

export type CaptureRequest = z.output<typeof captureRequestSchema>;
