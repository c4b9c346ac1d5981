import { z } from 'zod';
import { MERCHANT_REFERENCE_MAX } from '../redemptions/redemption-request';
import { majorAmountText } from './amount.validation';
import { toMinorUnits } from '../amount-text';
import { cardRefSchema } from './cards.validation';

/** The redeem form of a card's page (a customer at the counter); submission_id makes a double submission redeem once. */
export const redeemFormSchema = z.object({
  card_number: cardRefSchema.shape.card_number,
  submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
  // Kept as typed (the form shows it back); the action turns it into minor units.
  amount: majorAmountText.refine((text) => toMinorUnits(text) > 0, { error: 'Enter an amount above zero.' }),
  merchant_reference: z
    .string()
    .trim()
    .max(MERCHANT_REFERENCE_MAX, { error: `Keep the receipt number to ${MERCHANT_REFERENCE_MAX} characters.` })
    .optional(),
  /** The user said yes in the confirmation dialog (see lib/actions/confirmation.ts). */
  confirmed: z.boolean().optional(),
});

export type RedeemForm = z.infer<typeof redeemFormSchema>;
