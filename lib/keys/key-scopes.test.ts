import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { requireScope, scopesSchema } from './key-scopes';
import { API_KEY_SCOPES } from '../validation';

describe('requireScope', () => {
  const refusal = (fn: () => void) => {
    try {
      fn();
    } catch (err) {
      return err instanceof ServiceError ? { status: err.status, message: err.title, error: err.detail } : err;
    }
    return undefined;
  };

  it('lets a key with the scope through and refuses one without it, naming the scope', () => {
    expect(refusal(() => requireScope(['payouts'], 'payouts'))).toBeUndefined();
    expect(refusal(() => requireScope(API_KEY_SCOPES, 'cards'))).toBeUndefined();
    expect(refusal(() => requireScope(['read', 'cards'], 'payouts'))).toEqual({
      status: 403,
      message: 'Forbidden',
      error: 'This API key lacks the payouts scope.',
    });
    expect(refusal(() => requireScope(['payouts'], 'read'))).toEqual({
      status: 403,
      message: 'Forbidden',
      error: 'This API key lacks the read scope.',
    });
  });
});

describe('scopesSchema', () => {
  it('keeps the scopes in their canonical order', () => {
    expect(scopesSchema.parse(['payouts', 'read'])).toEqual(['read', 'payouts']);
  });

  it.each([
    [[], 'Choose at least one scope.'],
    [['read', 'read'], 'Name each scope once.'],
    [['read', 'admin'], 'Each scope must be one of read, cards, payments, payouts.'],
    [[1], 'Each scope must be one of read, cards, payments, payouts.'],
    ['read', 'scopes must be an array of scope names: read, cards, payments, payouts.'],
    [null, 'scopes must be an array of scope names: read, cards, payments, payouts.'],
  ])('refuses %j', (input, message) => {
    const result = scopesSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path, i.message])).toEqual([[[], message]]);
  });
});
