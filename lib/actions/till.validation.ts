import { z } from 'zod';
import { toMinorUnits } from '../amount-text';
import { majorAmountText } from './amount.validation';
import { redeemFormSchema } from './redemption.validation';

/** The till's one field: a card number (what a scanner types) or the holder's phone. */
export const tillFindSchema = z.object({
  query: z
    .string({ error: 'Type or scan a card number, or type a phone number.' })
    .trim()
    .min(1, { error: 'Type or scan a card number, or type a phone number.' })
    .max(64),
});

/** Redeem or hold at the till: the card page's redeem form, without a receipt number. */
export const tillMoneySchema = redeemFormSchema.omit({ merchant_reference: true });

const holdReference = z.string({ error: 'hold_reference is required.' }).trim().min(1, { error: 'hold_reference is required.' }).max(64);

/** Capture a hold: no amount captures the whole of it. */
export const tillCaptureSchema = z.object({
  hold_reference: holdReference,
  submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
  amount: majorAmountText.refine((text) => toMinorUnits(text) > 0, { error: 'Enter an amount above zero.' }).optional(),
  confirmed: z.boolean().optional(),
});

export const tillVoidSchema = z.object({ hold_reference: holdReference });
