import { z } from 'zod';
import { ServiceError } from '../errors';
import { API_KEY_SCOPES, type ApiKeyScope } from '../validation';

/** Refuses a key without the scope an operation's contract names, before anything else is read or done. */
export function requireScope(scopes: readonly ApiKeyScope[], scope: ApiKeyScope): void {
  if (!scopes.includes(scope)) throw new ServiceError('forbidden', `This API key lacks the ${scope} scope.`);
}

const scopeList = API_KEY_SCOPES.join(', ');

/** `scopes` of a new key: a non-empty list of distinct scope names, kept in the canonical order. */
export const scopesSchema = z
  .array(z.unknown(), { error: `scopes must be an array of scope names: ${scopeList}.` })
  .min(1, { error: 'Choose at least one scope.' })
  .refine((list) => list.every((s) => (API_KEY_SCOPES as readonly unknown[]).includes(s)), {
    error: `Each scope must be one of ${scopeList}.`,
  })
  .refine((list) => new Set(list).size === list.length, { error: 'Name each scope once.' })
  .transform((list) => API_KEY_SCOPES.filter((s) => list.includes(s)));
