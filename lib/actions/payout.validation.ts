import { z } from 'zod';
import { CHARGE_PAYERS, PAYERS } from '../payouts/payout-rules';
import { normalizeCardNumber } from '../cards/card-number';
import { amountText } from './amount.validation';

const DESTINATION_TYPES = ['card_to_card', 'b2b', 'bank'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

const cardNumberMessage = (label: string) => `The ${label} is 16 digits (spaces and dashes are fine).`;

/** A required card number field, as people paste it, to its 16 digits (the payout and payment forms). */
export const cardNumber = (label: string) =>
  z.string({ error: `Enter the ${label}.` }).transform((typed, ctx) => {
    if (typed.trim() === '') {
      ctx.addIssue({ code: 'custom', message: `Enter the ${label}.` });
      return z.NEVER;
    }
    const digits = normalizeCardNumber(typed);
    if (digits) return digits;
    ctx.addIssue({ code: 'custom', message: cardNumberMessage(label) });
    return z.NEVER;
  });
const optionalText = z.string().trim().max(200).optional();
const optionalCardNumber = z
  .string()
  .max(64)
  .optional()
  .transform((typed) => (typed === undefined ? undefined : (normalizeCardNumber(typed) ?? typed.trim())));

const fee = {
  card_number: cardNumber('source card number'),
  destination_type: z.enum(DESTINATION_TYPES, { error: 'Choose a destination type.' }),
  amount: amountText,
  charge_payer: z.enum(CHARGE_PAYERS, { error: 'Choose who pays the fee.' }),
};

function payerFits(v: { destination_type: DestinationType; charge_payer: string }, ctx: z.RefinementCtx) {
  if (!PAYERS[v.destination_type].includes(v.charge_payer)) {
    ctx.addIssue({
      code: 'custom',
      path: ['charge_payer'],
      message: `For this destination the fee is paid by ${PAYERS[v.destination_type].join(' or ')}.`,
    });
  }
}

/**
 * The live preview: the source card alone gives its currency and balance; with
 * an amount, the quote; with a destination, the destination's checks too.
 */
export const previewPayoutSchema = z
  .object({
    ...fee,
    amount: amountText.optional(),
    destination_card_number: optionalCardNumber,
    merchant_id: optionalText,
    bank_slug: optionalText,
    account_number: optionalText,
  })
  .superRefine(payerFits);
export type PreviewPayoutInput = z.input<typeof previewPayoutSchema>;

type SendPayoutShape = {
  destination_type: DestinationType;
  charge_payer: string;
  destination_card_number?: string;
  merchant_id?: string;
  bank_slug?: string;
  account_number?: string;
  account_name?: string;
};

/** The cross-field checks need a known destination type and payer; the rest may have failed. */
function validShape(value: unknown): value is SendPayoutShape {
  const v = value as Partial<SendPayoutShape> | null;
  return typeof v === 'object' && v !== null && DESTINATION_TYPES.includes(v.destination_type as DestinationType) && typeof v.charge_payer === 'string';
}

/**
 * The send-payout form. submission_id is generated once per form in the browser:
 * a double click or a retried request carries the same id and moves money once.
 */
export const sendPayoutSchema = z
  .object({
    submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
    ...fee,
    destination_card_number: optionalCardNumber,
    merchant_id: optionalText,
    bank_slug: optionalText,
    account_number: optionalText,
    account_name: optionalText,
    /** The user said yes in the confirmation dialog (see lib/actions/confirmation.ts). */
    confirmed: z.boolean().optional(),
  })
  // Run even when another field failed (a bad source card, say), so every field's error shows at once.
  .check(
    z.superRefine(
      (v: SendPayoutShape, ctx) => {
        payerFits(v, ctx);
        const need = (field: keyof typeof v, message: string) => {
          if (!v[field]) ctx.addIssue({ code: 'custom', path: [field], message });
        };
        if (v.destination_type === 'card_to_card') {
          if (!v.destination_card_number) need('destination_card_number', 'Enter the destination card number.');
          else if (!/^\d{16}$/.test(v.destination_card_number))
            ctx.addIssue({ code: 'custom', path: ['destination_card_number'], message: cardNumberMessage('destination card number') });
        } else if (v.destination_type === 'b2b') {
          need('merchant_id', 'Enter the merchant id of the business to pay.');
        } else {
          need('bank_slug', 'Choose a bank or wallet.');
          need('account_number', 'Enter the account number.');
          need('account_name', 'Enter the account holder’s name.');
        }
      },
      { when: (payload) => validShape(payload.value) },
    ),
  );

export type SendPayoutInput = z.input<typeof sendPayoutSchema>;
export type SendPayoutValues = z.output<typeof sendPayoutSchema>;

/** The API-shaped body of POST /card/payouts for the chosen destination only. */
export function toPayoutRequest(v: SendPayoutValues): Record<string, unknown> {
  const base = { card_number: v.card_number, amount: v.amount, charge_payer: v.charge_payer };
  if (v.destination_type === 'card_to_card') return { ...base, destination_card_number: v.destination_card_number };
  if (v.destination_type === 'b2b') return { ...base, merchant_id: v.merchant_id };
  return { ...base, bank_slug: v.bank_slug, account_number: v.account_number, account_name: v.account_name };
}

/** The recipient lookup of a card-to-card payout: the destination number, and the source to compare currencies with. */
export const lookupRecipientSchema = z.object({
  card_number: optionalCardNumber,
  destination_card_number: cardNumber('destination card number'),
});
