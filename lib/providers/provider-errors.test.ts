import { describe, expect, it, vi } from 'vitest';
import { RateLimitedError } from '../rate-limits/token-buckets';
import { ServiceError } from '../errors';
import { RailRefused } from './rail-refused';

/**
 * A provider adapter registered at start by one copy of the modules (Next.js's
 * instrumentation bundle, the standalone process) throws into another copy
 * (a route handler's): its errors must still be recognised there.
 */
describe('errors thrown across copies of the modules', () => {
  it('recognises a ServiceError and a RailRefused made by another copy', async () => {
    vi.resetModules();
    const other = { ...(await import('../errors')), ...(await import('./rail-refused')) };
    expect(other.ServiceError).not.toBe(ServiceError);
    expect(new other.ServiceError('payment_request_failed', 'Chapa refused') instanceof ServiceError).toBe(true);
    expect(new other.RailRefused('refused') instanceof RailRefused).toBe(true);
    expect(new other.RailRefused('refused') instanceof ServiceError).toBe(false);
    expect(new Error('x') instanceof ServiceError).toBe(false);
  });

  it('keeps the ordinary check for a subclass', () => {
    expect(new ServiceError('rate_limited') instanceof RateLimitedError).toBe(false);
    expect(new RateLimitedError(3, 'slow down') instanceof RateLimitedError).toBe(true);
    expect(new RateLimitedError(3, 'slow down') instanceof ServiceError).toBe(true);
  });
});
