import { z } from 'zod';
import type { SpendCodeRequired } from '../../spend-codes/request-spend-code';
import { currency, minorUnits, reg, timestamp } from './schemas';

const spendCodeRequiredSchema = reg(
  'SpendCodeRequired',
  z.strictObject({
    confirmation_reference: z.string().meta({ description: 'scf_…: send the code to POST /card/confirmations/{confirmation_reference}' }),
    kind: z.enum(['redemption', 'capture']).meta({ description: 'What the code completes' }),
    card_number: z.string().regex(/^\d{16}$/),
    currency,
    amount: minorUnits.meta({ description: 'What the completed spend will take' }),
    hold_reference: z.string().optional().meta({ description: 'The hold a capture spends; absent for a redemption' }),
    expires_at: timestamp.meta({ description: 'The code works until then (5 minutes)' }),
  }),
  'Beyond SPEC.md. The spend is over your spend_code_over: nothing moved yet; a 6-digit code went by SMS to the card’s phone (test mode: none is sent and the code is 000000).',
);

const example = (kind: 'redemption' | 'capture'): SpendCodeRequired => ({
  confirmation_reference: 'scf_4Jd8sK2mQ7wX1zV5nB9cL3hT',
  kind,
  card_number: '4000123412341234',
  currency: 'ETB',
  amount: 250_000,
  ...(kind === 'capture' ? { hold_reference: 'hld_3Tq9wE6rY1uI8oP2aS5dF7gH' } : {}),
  expires_at: '2025-06-01T09:35:02.512Z',
});

/** The 202 a redemption or a capture answers over the business's spend_code_over. */
export const spendCodeAccepted = (kind: 'redemption' | 'capture') => ({
  status: 202 as const,
  message: 'Cardholder code required',
  data: spendCodeRequiredSchema,
  examples: { code_required: example(kind) },
});
