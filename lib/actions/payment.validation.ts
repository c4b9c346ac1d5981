import { z } from 'zod';
import { amountText } from './amount.validation';
import { cardNumber } from './payout.validation';

const PAYMENT_KINDS = ['hosted', 'direct-charge'] as const;

/** The new-payment form; submission_id makes a double submission start one payment. */
export const createPaymentFormSchema = z
  .object({
    submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
    type: z.enum(PAYMENT_KINDS, { error: 'Choose hosted link or direct charge.' }),
    card_number: cardNumber('card number'),
    amount: amountText,
    merchant_reference: z.string().trim().max(255, { error: 'At most 255 characters.' }).optional(),
    phone_number: z.string().trim().max(32).optional(),
    payment_method: z.string().trim().max(64).optional(),
    /** The user said yes in the confirmation dialog (see lib/actions/confirmation.ts). */
    confirmed: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'direct-charge') return;
    // National numbers (0911 234 567) are read as the business's country on the server; the API itself takes E.164 only.
    if (!/^\+?[\d\s\-().]{8,32}$/.test(v.phone_number ?? ''))
      ctx.addIssue({ code: 'custom', path: ['phone_number'], message: 'Enter the wallet’s phone number, e.g. 0911 234 567 or +251 911 234 567.' });
    if (!v.payment_method) ctx.addIssue({ code: 'custom', path: ['payment_method'], message: 'Choose a wallet.' });
  });

/** The card a payment is for, looked up as it is typed: its currency chooses the wallets offered. */
export const paymentCardSchema = z.object({ card_number: cardNumber('card number') });

export type CreatePaymentFormInput = z.input<typeof createPaymentFormSchema>;
export type CreatePaymentFormValues = z.output<typeof createPaymentFormSchema>;
