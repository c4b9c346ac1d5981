import { z } from 'zod';
import { amountText } from './amount.validation';

export const DESTINATION_TYPES = ['card_to_card', 'b2b', 'bank'] as const;
export type DestinationType = (typeof DESTINATION_TYPES)[number];

/** Who may pay the fee, default first (SPEC.md's charge_payer table). */
export const CHARGE_PAYERS: Record<DestinationType, readonly [string, string]> = {
  card_to_card: ['sender', 'receiver'],
  b2b: ['business', 'customer'],
  bank: ['business', 'customer'],
};

const cardNumber = (label: string) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .regex(/^\d{16}$/, { error: `The ${label} is 16 digits.` });
const optionalText = z.string().trim().max(200).optional();

const fee = {
  card_number: cardNumber('source card number'),
  destination_type: z.enum(DESTINATION_TYPES, { error: 'Choose a destination type.' }),
  amount: amountText,
  charge_payer: z.enum(['sender', 'receiver', 'business', 'customer'], { error: 'Choose who pays the fee.' }),
};

function payerFits(v: { destination_type: DestinationType; charge_payer: string }, ctx: z.RefinementCtx) {
  if (!CHARGE_PAYERS[v.destination_type].includes(v.charge_payer)) {
    ctx.addIssue({
      code: 'custom',
      path: ['charge_payer'],
      message: `For this destination the fee is paid by ${CHARGE_PAYERS[v.destination_type].join(' or ')}.`,
    });
  }
}

/** The live fee preview: source card, type, amount and payer are enough. */
export const previewPayoutSchema = z.object(fee).superRefine(payerFits);

/**
 * The send-payout form. submission_id is generated once per form in the browser:
 * a double click or a retried request carries the same id and moves money once.
 */
export const sendPayoutSchema = z
  .object({
    submission_id: z.uuid({ error: 'The form lost its submission id; reload the page.' }),
    ...fee,
    destination_card_number: optionalText,
    merchant_id: optionalText,
    bank_slug: optionalText,
    account_number: optionalText,
    account_name: optionalText,
  })
  .superRefine((v, ctx) => {
    payerFits(v, ctx);
    const need = (field: keyof typeof v, message: string) => {
      if (!v[field]) ctx.addIssue({ code: 'custom', path: [field], message });
    };
    if (v.destination_type === 'card_to_card') {
      if (!/^\d{16}$/.test(v.destination_card_number ?? ''))
        ctx.addIssue({ code: 'custom', path: ['destination_card_number'], message: 'The destination card number is 16 digits.' });
    } else if (v.destination_type === 'b2b') {
      need('merchant_id', 'Enter the merchant id of the business to pay.');
    } else {
      need('bank_slug', 'Choose a bank or wallet.');
      need('account_number', 'Enter the account number.');
      need('account_name', 'Enter the account holder’s name.');
    }
  });

export type SendPayoutInput = z.input<typeof sendPayoutSchema>;
export type SendPayoutValues = z.output<typeof sendPayoutSchema>;

/** The API-shaped body of POST /card/payouts for the chosen destination only. */
export function toPayoutRequest(v: SendPayoutValues): Record<string, unknown> {
  const base = { card_number: v.card_number, amount: v.amount, charge_payer: v.charge_payer };
  if (v.destination_type === 'card_to_card') return { ...base, destination_card_number: v.destination_card_number };
  if (v.destination_type === 'b2b') return { ...base, merchant_id: v.merchant_id };
  return { ...base, bank_slug: v.bank_slug, account_number: v.account_number, account_name: v.account_name };
}
