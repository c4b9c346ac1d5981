import { z } from 'zod';
import { ServiceError, type FieldErrors } from './errors';

export const CURRENCIES = ['ETB', 'USD', 'DJF', 'UGX'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];

/** What a restricted API key may do; a key holds one or more, in this order. */
export const API_KEY_SCOPES = ['read', 'cards', 'payments', 'payouts'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const MIN_AMOUNT = 100;
export const MAX_AMOUNT = 1_000_000_000_000;

/** Integer minor units; a float, string or out-of-range number is a validation error. */
export const amountSchema = z
  .number({ error: 'Amount must be an integer number of minor units.' })
  .int({ error: 'Amount must be an integer number of minor units.' })
  .min(MIN_AMOUNT, { error: `Amount must be at least ${MIN_AMOUNT} minor units (1 unit of currency).` })
  .max(MAX_AMOUNT, { error: `Amount must be at most ${MAX_AMOUNT} minor units.` });

/** A required, trimmed, non-empty string of at most `max` characters, with messages naming the field. */
export const requiredText = (field: string, max = 64) =>
  z
    .string({ error: (iss) => (iss.input === undefined ? `${field} is required.` : `${field} must be a string.`) })
    .trim()
    .min(1, { error: `${field} must not be empty.` })
    .max(max, { error: `${field} must be at most ${max} characters.` });

export const currencySchema = z.enum(CURRENCIES, { error: `Currency must be one of ${CURRENCIES.join(', ')}.` });
export const modeSchema = z.enum(MODES, { error: 'Mode must be test or live.' });

function fieldErrors(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
    out[field] ??= issue.message;
  }
  return out;
}

/** Parses input against a schema, or throws the spec's validation error keyed by field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ServiceError('validation_error', fieldErrors(result.error));
  return result.data;
}

/** Text typed into a search box without control characters (PostgreSQL refuses a NUL in a text parameter). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
export const withoutControlCharacters = (text: string): string => text.replace(/[\u0000-\u001f\u007f]/g, ' ');
