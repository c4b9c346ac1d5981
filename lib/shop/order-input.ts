import { z } from 'zod';
import { ServiceError } from '../errors';
import { parseInput } from '../validation';

export const MESSAGE_MAX = 200;
const NAME_MAX = 100;

const name = (field: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
    .trim()
    .min(1, { error: `${field} must not be empty.` })
    .max(NAME_MAX, { error: `${field} must be at most ${NAME_MAX} characters.` });

const phone = (field: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
    .trim()
    .max(32, { error: `${field} is too long.` });

// Control characters other than line breaks are dropped: the message is plain text shown as text.
// biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point.
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f]/g;

const orderInputSchema = z.object({
  amount: z.number({ error: 'amount must be an integer number of minor units.' }).int({ error: 'amount must be an integer number of minor units.' }),
  recipient: z.object(
    { name: name('recipient.name'), phone_number: phone('recipient.phone_number') },
    { error: 'recipient must be an object with name and phone_number.' },
  ),
  message: z
    .string({ error: 'message must be a string.' })
    .transform((m) => m.replace(/\r\n?/g, '\n').replace(CONTROL, '').trim())
    .pipe(z.string().max(MESSAGE_MAX, { error: `message must be at most ${MESSAGE_MAX} characters.` }))
    .nullish(),
  buyer: z.object(
    {
      name: name('buyer.name'),
      phone_number: phone('buyer.phone_number').optional(),
      email: z.string({ error: 'buyer.email must be a string.' }).trim().max(254).email({ error: 'buyer.email must be an email address.' }).optional(),
    },
    { error: 'buyer must be an object with name and phone_number or email.' },
  ),
});

export type OrderInput = z.output<typeof orderInputSchema>;

export function parseOrderInput(input: unknown): OrderInput {
  const parsed = parseInput(orderInputSchema, input);
  if (!parsed.buyer.phone_number && !parsed.buyer.email) {
    throw new ServiceError('validation_error', { buyer: 'buyer needs a phone_number or an email.' });
  }
  return parsed;
}

/** A name typed as one line, as the card's first and last name. */
export function splitName(full: string): { first: string; last?: string } {
  const [first, ...rest] = full.trim().split(/\s+/);
  return rest.length ? { first, last: rest.join(' ') } : { first };
}
