import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAPA_BASE_URL, readChapaConfig } from './config';

describe('readChapaConfig', () => {
  it('is off without CHAPA_SECRET_KEY, whatever else is set', () => {
    expect(readChapaConfig({})).toBeNull();
    expect(readChapaConfig({ CHAPA_SECRET_KEY: '  ', CHAPA_WEBHOOK_SECRET: 'x', CHAPA_BASE_URL: 'http://fake' })).toBeNull();
  });

  it('reads every CHAPA_* variable, with the documented base URL by default', () => {
    expect(readChapaConfig({ CHAPA_SECRET_KEY: 'CHASECK_TEST-abc' })).toEqual({
      secretKey: 'CHASECK_TEST-abc',
      baseUrl: DEFAULT_CHAPA_BASE_URL,
      webhookSecret: null,
      encryptionKey: null,
      approvalSecret: null,
      timeoutMs: 15_000,
      leaseMs: 60_000,
      listCacheMs: 180_000,
    });
    expect(
      readChapaConfig({
        CHAPA_SECRET_KEY: 'k',
        CHAPA_BASE_URL: 'http://127.0.0.1:4010/v1/',
        CHAPA_WEBHOOK_SECRET: 'w',
        CHAPA_ENCRYPTION_KEY: 'e',
        CHAPA_APPROVAL_SECRET: 'a',
        CHAPA_TIMEOUT_MS: 'soon',
      }),
    ).toMatchObject({ baseUrl: 'http://127.0.0.1:4010/v1', webhookSecret: 'w', encryptionKey: 'e', approvalSecret: 'a', timeoutMs: 15_000 });
  });

  it('leases a claimed rail request for four call timeouts, or CHAPA_LEASE_MS when it outlasts two calls', () => {
    const lease = (env: Record<string, string>) => readChapaConfig({ CHAPA_SECRET_KEY: 'k', ...env })?.leaseMs;
    expect(lease({ CHAPA_TIMEOUT_MS: '2000' })).toBe(8_000);
    expect(lease({ CHAPA_TIMEOUT_MS: '2000', CHAPA_LEASE_MS: '5000' })).toBe(5_000);
    // Shorter than a pass's two calls (another instance could send the row meanwhile), or not a number: the default.
    expect(lease({ CHAPA_TIMEOUT_MS: '2000', CHAPA_LEASE_MS: '4000' })).toBe(8_000);
    // Two calls and no room for the pass's database work: it could lapse mid-pass.
    expect(lease({ CHAPA_TIMEOUT_MS: '2000', CHAPA_LEASE_MS: '4500' })).toBe(8_000);
    expect(lease({ CHAPA_TIMEOUT_MS: '2000', CHAPA_LEASE_MS: 'soon' })).toBe(8_000);
  });
});
