import { z } from 'zod';
import { CURRENCIES, MODES } from '../../validation';

/**
 * The shapes the API answers with are zod schemas registered under their
 * OpenAPI component names. Objects are strict so that the document (and the
 * contract test that checks answers against it) refuses a field nobody wrote
 * down; properties are listed in the order the API sends them.
 */
export const responseRegistry = z.registry<{ id: string; description?: string }>();

export const reg = <S extends z.ZodType>(id: string, schema: S, description?: string): S => {
  responseRegistry.add(schema, description ? { id, description } : { id });
  return schema;
};

export const timestamp = z.iso.datetime({ offset: true });
export const currency = z.enum(CURRENCIES);
export const mode = z.enum(MODES);
export const minorUnits = z.int().min(0);
export const lifecycle = z.enum(['pending', 'success', 'failed']);

export const pageOf = <S extends z.ZodType>(items: S) =>
  z.strictObject({ items: z.array(items), total: z.int().min(0), page: z.int().min(1), limit: z.int().min(1), pages: z.int().min(0) });

export const customer = z
  .strictObject({ first_name: z.string().optional(), last_name: z.string().optional(), email: z.string().optional(), phone_number: z.string().optional() })
  .meta({ description: 'The card holder; empty fields are left out' });

const validationErrorsSchema = reg(
  'ValidationErrors',
  z.record(z.string(), z.string()).meta({ description: 'One message per field name (body for a malformed body)' }),
);

reg('SuccessEnvelope', z.strictObject({ status: z.literal('success'), message: z.string(), data: z.unknown() }));

reg(
  'ErrorEnvelope',
  z.strictObject({
    status: z.literal('error'),
    message: z.string().meta({ description: 'The title of the error' }),
    error: z.string().meta({ description: 'A sentence saying what to do' }),
    request_id: z.string().optional().meta({ description: 'On 500 answers: quote it when reporting' }),
  }),
);

reg('ValidationErrorEnvelope', z.strictObject({ status: z.literal('error'), message: z.literal('Validation error'), error: validationErrorsSchema }));

/** An item a batch refused: the error envelope the single call would have answered (its HTTP status is not repeated). */
export const batchItemErrorSchema = reg(
  'BatchItemError',
  z.strictObject({
    status: z.literal('error'),
    message: z.string().meta({ description: 'The error title of SPEC.md, as the single call answers it' }),
    error: z.union([z.string(), z.record(z.string(), z.string())]).meta({ description: 'A sentence, or one message per field for Validation error' }),
  }),
);

/** The times of the examples, so that one story reads the same across them. */
export const exampleTimes = { created: '2025-06-01T09:30:00.000Z', updated: '2025-06-01T09:30:02.512Z' };
