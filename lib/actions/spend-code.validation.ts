import { z } from 'zod';

/** The cashier types the cardholder's code to complete a spend that answered "code required". */
export const spendCodeFormSchema = z.object({
  confirmation_reference: z.string({ error: 'confirmation_reference is required.' }).trim().min(1, { error: 'confirmation_reference is required.' }).max(64),
  code: z
    .string({ error: 'Type the 6 digits the cardholder’s phone got.' })
    .trim()
    .regex(/^\d{6}$/, { error: 'Type the 6 digits the cardholder’s phone got.' }),
});
