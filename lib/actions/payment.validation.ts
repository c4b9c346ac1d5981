import { z } from 'zod';
import { amountText } from './amount.validation';

export const PAYMENT_KINDS = ['hosted', 'direct-charge'] as const;

/** The new-payment form; submission_id makes a double submission start one payment. */
export const createPaymentFormSchema = z
  .object({
    submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
    type: z.enum(PAYMENT_KINDS, { error: 'Choose hosted link or direct charge.' }),
    card_number: z
      .string({ error: 'Enter the card number.' })
      .trim()
      .regex(/^\d{16}$/, { error: 'The card number is 16 digits.' }),
    amount: amountText,
    merchant_reference: z.string().trim().max(255, { error: 'At most 255 characters.' }).optional(),
    phone_number: z.string().trim().max(32).optional(),
    payment_method: z.string().trim().max(64).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.type !== 'direct-charge') return;
    if (!/^\+\d{8,15}$/.test(v.phone_number ?? ''))
      ctx.addIssue({ code: 'custom', path: ['phone_number'], message: 'Enter the wallet’s phone number with its country code, e.g. +251911234567.' });
    if (!v.payment_method) ctx.addIssue({ code: 'custom', path: ['payment_method'], message: 'Choose a wallet.' });
  });

export type CreatePaymentFormInput = z.input<typeof createPaymentFormSchema>;
export type CreatePaymentFormValues = z.output<typeof createPaymentFormSchema>;
