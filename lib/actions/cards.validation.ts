import { z } from 'zod';
import { majorAmountText } from './amount.validation';
import { CURRENCIES } from '../validation';

/**
 * The card forms' schemas: the browser validates with them (zod resolver) and
 * the server actions parse with them again; the core then applies its own rules.
 */

const optionalName = (label: string) =>
  z
    .string()
    .trim()
    .max(100, { error: `${label} must be at most 100 characters.` });

export const createCardFormSchema = z.object({
  phone_number: z
    .string({ error: 'Enter the holder’s phone number.' })
    .trim()
    .min(1, { error: 'Enter the holder’s phone number.' })
    .max(32, { error: 'The phone number is too long.' }),
  currency: z.enum(CURRENCIES, { error: `Choose one of ${CURRENCIES.join(', ')}.` }),
  first_name: optionalName('First name'),
  last_name: optionalName('Last name'),
});
export type CreateCardForm = z.infer<typeof createCardFormSchema>;

export const cardRefSchema = z.object({
  card_number: z.string({ error: 'card_number is required.' }).trim().min(1, { error: 'card_number is required.' }).max(64),
});

/** Disabling from the dashboard: an optional short note of why, shown on the card's story. */
export const DISABLE_REASON_MAX = 200;
export const disableCardFormSchema = cardRefSchema.extend({
  reason: z
    .string()
    .trim()
    .max(DISABLE_REASON_MAX, { error: `Keep the reason to ${DISABLE_REASON_MAX} characters or fewer.` })
    .optional(),
});

/** "Send to another number": the corrected number as support types it (national or international). */
export const correctPhoneFormSchema = cardRefSchema.extend({
  phone_number: createCardFormSchema.shape.phone_number,
});

export const topUpFormSchema = z.object({
  card_number: cardRefSchema.shape.card_number,
  source: z.enum(['business', 'link'], { error: 'Choose where the money comes from.' }),
  amount: majorAmountText,
  /** Generated once per form: a double click or a retried request replays the first answer instead of moving money twice. */
  submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
  /** The user said yes in the confirmation dialog (see lib/actions/confirmation.ts). */
  confirmed: z.boolean().optional(),
});
export type TopUpForm = z.infer<typeof topUpFormSchema>;
