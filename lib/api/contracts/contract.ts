import type { z } from 'zod';
import type { ErrorCode } from '../../errors';
import { DEFAULT_LIMIT, pageQuery } from '../../pagination';
import type { ApiKeyScope } from '../../validation';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A request body: one schema, or several alternatives chosen by the fields sent. */
interface RequestBody {
  /** Component name to schema; more than one means "one of these". */
  schemas: Readonly<Record<string, z.ZodType>>;
  /** One example per alternative, by name. */
  examples: Readonly<Record<string, unknown>>;
}

export interface QueryParam {
  name: string;
  description: string;
  /** The schema the route parses this parameter with. */
  schema: z.ZodType;
  default?: string | number;
}

/** What the OpenAPI document says of one operation: an API contract, or an operation of the back office. */
export interface Operation {
  method: HttpMethod;
  /** Relative to the API's server: /card/{card_number}. */
  path: string;
  /** Also the typed client's method name. */
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  pathParams?: Readonly<Record<string, string>>;
  query?: readonly QueryParam[];
  body?: RequestBody;
  success: {
    status: number;
    /** The `message` of the success envelope; several when it depends on the request. */
    message: string | readonly string[];
    /** A registered response schema, an array of one, or null for `data: null`. */
    data: z.ZodType | null;
    examples: Readonly<Record<string, unknown>>;
  };
  /**
   * A second success some requests get instead: 202 with a body that says the operation waits for something (a
   * spend over the business's code threshold waits for the cardholder's code).
   */
  accepted?: {
    status: 202;
    message: string;
    data: z.ZodType;
    examples: Readonly<Record<string, unknown>>;
  };
  /** The errors this operation's own code raises, beyond the ones every operation of its API can give. */
  errors: readonly ErrorCode[];
}

/**
 * One operation of `/api/v1`, declared once: its route file hands it to apiRoute (which refuses a key
 * without `scope`), the OpenAPI document is built from the list of them, and the typed client takes
 * its types from them.
 */
export interface Contract extends Operation {
  /** The scope an API key needs for this operation. */
  scope: ApiKeyScope;
}

/** Served without an API key (documentation). */
export interface PublicContract extends Operation {
  public: true;
}

/** A resource's contracts keyed by operationId, their literal types kept for the typed client. */
export function defineContracts<const T extends Record<string, Omit<Contract, 'operationId'>>>(list: T): { [K in keyof T]: T[K] & { operationId: K } } {
  return Object.fromEntries(Object.entries(list).map(([operationId, c]) => [operationId, { ...c, operationId }])) as {
    [K in keyof T]: T[K] & { operationId: K };
  };
}

/** The `data` of a contract's success answer (either of its two, when it declares an accepted one). */
export type DataOf<C extends Operation> =
  | (C['success']['data'] extends z.ZodType ? z.output<C['success']['data']> : null)
  | (C['accepted'] extends { data: infer A extends z.ZodType } ? z.output<A> : never);

/** What a client sends as the request body `Name` (its component name) of a contract; never for a name the contract lacks. */
export type RequestOf<C, Name extends string> = C extends { body: { schemas: infer S } }
  ? Name extends keyof S
    ? S[Name] extends z.ZodType
      ? z.input<S[Name]>
      : never
    : never
  : never;

/** The contract's path as a request spells it: each `{param}` is any text. */
export type FilledPath<P extends string> = P extends `${infer A}{${string}}${infer B}` ? `${A}${string}${FilledPath<B>}` : P;

export const pageParams: QueryParam[] = [
  { name: 'page', description: 'Page number, 1-based', schema: pageQuery.shape.page, default: 1 },
  { name: 'limit', description: 'Items per page, 1 to 100', schema: pageQuery.shape.limit, default: DEFAULT_LIMIT },
  { name: 'offset', description: 'Items to skip, 0-based; used instead of page when present', schema: pageQuery.shape.offset },
];

export const cardNumberParam = { card_number: 'The 16-digit card number' };
