import { describe, expect, it } from 'vitest';
import { clientAddress, requestAddress, trustedProxyHops } from './client-address';

describe('client address', () => {
  it('is the socket address unless proxies are trusted, whatever X-Forwarded-For claims', () => {
    expect(clientAddress('::ffff:127.0.0.1', '203.0.113.9', 0)).toBe('127.0.0.1');
    expect(clientAddress('10.0.0.2', undefined, 1)).toBe('10.0.0.2');
  });

  it('takes the entry our last trusted proxy wrote, never one the client wrote before it', () => {
    // The client sent "1.1.1.1"; our one proxy appended the address it saw.
    expect(clientAddress('10.0.0.2', '1.1.1.1, 198.51.100.7', 1)).toBe('198.51.100.7');
    // Two proxies: the outer one appended the client, the inner one the outer proxy.
    expect(clientAddress('10.0.0.3', '1.1.1.1, 198.51.100.7, 10.0.0.2', 2)).toBe('198.51.100.7');
    // Fewer entries than hops: the leftmost there is.
    expect(clientAddress('10.0.0.3', '198.51.100.7', 3)).toBe('198.51.100.7');
  });

  it('reads TRUST_PROXY as a count of hops, anything else as none', () => {
    expect(trustedProxyHops({ TRUST_PROXY: '2' })).toBe(2);
    expect(trustedProxyHops({ TRUST_PROXY: 'true' })).toBe(0);
    expect(trustedProxyHops({})).toBe(0);
  });

  it('reads the one address the server wrote, from Headers or a plain object', () => {
    expect(requestAddress(new Headers({ 'x-forwarded-for': '198.51.100.7' }))).toBe('198.51.100.7');
    expect(requestAddress({ 'x-forwarded-for': '198.51.100.7' })).toBe('198.51.100.7');
    expect(requestAddress({})).toBe('unknown');
  });
});
