import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { apiKeyOperations } from '../../tests/api-key-operations';
import { OPERATION_SCOPES, requireScope, requiredScope, scopesSchema } from './key-scopes';
import { API_KEY_SCOPES } from '../validation';

describe('the scope table', () => {
  it('names the scope of every operation a route file under app/api/v1 serves with an API key', () => {
    const operations = apiKeyOperations();
    expect(operations.length).toBeGreaterThanOrEqual(17);
    expect(operations.filter((op) => !(op in OPERATION_SCOPES))).toEqual([]);
  });

  it('needs read for every GET and never read for anything else', () => {
    for (const [operation, scope] of Object.entries(OPERATION_SCOPES)) expect([operation, scope === 'read']).toEqual([operation, operation.startsWith('GET ')]);
  });

  it('finds each served operation from a request path, static folders before dynamic ones as Next.js routes them', () => {
    for (const operation of apiKeyOperations()) {
      const [method, route] = operation.split(' ');
      const pathname = `/api/v1${route.replace(/\[[^\]]+\]/g, '4921583047261138')}`;
      expect([operation, requiredScope(method, pathname)]).toEqual([operation, OPERATION_SCOPES[operation]]);
    }
    expect(requiredScope('POST', '/api/v1/card/payments')).toBe('payments');
    expect(requiredScope('POST', '/api/v1/card/payouts')).toBe('payouts');
    expect(requiredScope('PATCH', '/api/v1/card/payouts')).toBeUndefined();
    expect(requiredScope('POST', '/api/v1/card/payments/pay_123/refund')).toBe('payments');
    // HEAD is served by the GET handler, so it needs what GET needs.
    expect(requiredScope('HEAD', '/api/v1/card')).toBe('read');
    // Next.js matches folders against the path as sent (tests/api/key-scopes.test.ts shows it over HTTP).
    expect(requiredScope('POST', '/api/v1/card/%70ayouts')).toBeUndefined();
    expect(requiredScope('GET', '/api/v1/card/%70ayouts')).toBe('read');
    expect(requiredScope('GET', '/api/v1/card/')).toBeUndefined();
    expect(requiredScope('GET', '/api/v2/card')).toBeUndefined();
  });
});

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
    expect(refusal(() => requireScope(['payouts'], 'POST', 'http://x/api/v1/card/payouts'))).toBeUndefined();
    expect(refusal(() => requireScope(['read', 'cards'], 'POST', 'http://x/api/v1/card/payouts'))).toEqual({
      status: 403,
      message: 'Forbidden',
      error: 'This API key lacks the payouts scope.',
    });
    expect(refusal(() => requireScope(['payouts'], 'GET', 'http://x/api/v1/card/payouts?page=2'))).toEqual({
      status: 403,
      message: 'Forbidden',
      error: 'This API key lacks the read scope.',
    });
  });

  it('lets only a key with every scope through an operation the table does not name', () => {
    expect(refusal(() => requireScope(API_KEY_SCOPES, 'PUT', 'http://x/api/v1/card'))).toBeUndefined();
    expect(refusal(() => requireScope(['read', 'cards', 'payments'], 'PUT', 'http://x/api/v1/card'))).toMatchObject({ status: 403, message: 'Forbidden' });
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
