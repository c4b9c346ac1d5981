import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors';
import { checkJsonShape, MAX_JSON_DEPTH, readBodyBytes, readJsonBody } from './read-body';

const nested = (depth: number) => JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof ServiceError ? err.code : 'other';
  }
  return 'none';
};

/** A chunked body of `chunks` pieces of `size` bytes that counts how many were pulled. */
function streamingRequest(chunks: number, size: number) {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled === chunks) return controller.close();
      pulled++;
      controller.enqueue(new Uint8Array(size));
    },
  });
  return { req: new Request('http://x/', { method: 'POST', body, duplex: 'half' } as RequestInit), pulled: () => pulled };
}

describe('request bodies', () => {
  it('takes nesting up to the limit and refuses deeper, without recursion, at any depth', () => {
    expect(codeOf(() => checkJsonShape(nested(MAX_JSON_DEPTH)))).toBe('none');
    expect(codeOf(() => checkJsonShape(nested(MAX_JSON_DEPTH + 1)))).toBe('validation_error');
    expect(codeOf(() => checkJsonShape(nested(200_000)))).toBe('validation_error');
    expect(codeOf(() => checkJsonShape(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000))))).toBe('validation_error');
  });

  it('refuses a NUL byte in any key or string', () => {
    expect(codeOf(() => checkJsonShape({ a: [{ b: 'x\u0000' }] }))).toBe('validation_error');
    expect(codeOf(() => checkJsonShape({ 'k\u0000': 1 }))).toBe('validation_error');
    expect(codeOf(() => checkJsonShape({ a: ['fine', 1, null, true] }))).toBe('none');
  });

  it('stops reading a stream at the limit, whatever was declared', async () => {
    const big = streamingRequest(1000, 64 * 1024);
    await expect(readBodyBytes(big.req, 1024 * 1024)).rejects.toMatchObject({ code: 'payload_too_large' });
    // 1 MB is 16 chunks of 64 KB: the 17th crosses the limit and nothing more is pulled (a chunk or two of read-ahead at most).
    expect(big.pulled()).toBeLessThanOrEqual(19);
    const small = streamingRequest(4, 1000);
    expect((await readBodyBytes(small.req, 4000)).length).toBe(4000);
  });

  it('refuses a declared length over the limit before reading anything', async () => {
    const big = streamingRequest(10, 10);
    big.req.headers.set('content-length', String(2 * 1024 * 1024));
    await expect(readBodyBytes(big.req)).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(big.pulled()).toBe(0);
  });

  it('reads a JSON object, an empty body as {}, and refuses other JSON', async () => {
    const post = (text: string) => readJsonBody(new Request('http://x/', { method: 'POST', body: text }));
    expect((await post('{"a":1}')).body).toEqual({ a: 1 });
    expect((await post('  ')).body).toEqual({});
    await expect(post('[1]')).rejects.toMatchObject({ code: 'validation_error' });
    await expect(post('{bad')).rejects.toMatchObject({ code: 'validation_error' });
  });
});
