import { describe, expect, it } from 'vitest';
import { testDb } from '../../tests/helpers';
import { sha256Hex } from '../ids';
import { withIdempotency } from './idempotency';
import { canonicalJson, requestFingerprints } from './request-fingerprint';

describe('request fingerprints', () => {
  it('sort object keys at every depth, keep arrays in order, and ignore spacing', () => {
    const a = requestFingerprints('POST', '/api/v1/card', '{"b":1,"a":{"y":[3,{"q":1,"p":2}],"x":"s"}}');
    const b = requestFingerprints('POST', '/api/v1/card', ' { "a" : { "x":"s", "y":[3,{"p":2,"q":1}] }, "b":1 } ');
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(canonicalJson({ b: 1, a: [2, 1] })).toBe('{"a":[2,1],"b":1}');
    expect(requestFingerprints('POST', '/api/v1/card', '{"a":[1,2]}').fingerprint).not.toBe(
      requestFingerprints('POST', '/api/v1/card', '{"a":[2,1]}').fingerprint,
    );
    expect(requestFingerprints('POST', '/api/v1/card', '{"a":1}').fingerprint).not.toBe(requestFingerprints('POST', '/api/v1/cards', '{"a":1}').fingerprint);
  });

  it('a key stored with the raw-bytes fingerprint of before still replays its retry sent byte for byte', async () => {
    const raw = '{"phone_number":"+251911000000","currency":"ETB"}';
    const key = `legacy-${Date.now()}`;
    const apiKeyId = -515_151;
    const stored = sha256Hex(`POST /api/v1/card\n${raw}`);
    expect(requestFingerprints('POST', '/api/v1/card', raw).legacy).toBe(stored);
    const first = await withIdempotency(testDb(), { apiKeyId, key, fingerprint: stored }, async () => new Response('{"n":1}', { status: 201 }));
    expect(first.status).toBe(201);
    const { fingerprint, legacy } = requestFingerprints('POST', '/api/v1/card', raw);
    const retry = await withIdempotency(
      testDb(),
      { apiKeyId, key, fingerprint, legacyFingerprint: legacy },
      async () => new Response('{"n":2}', { status: 201 }),
    );
    expect(await retry.text()).toBe('{"n":1}');
  });
});
