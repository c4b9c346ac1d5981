import type { IncomingMessage } from 'node:http';

export type HeldBody = { kind: 'held'; body: Buffer; release(): void } | { kind: 'too_large' } | { kind: 'gone' };

/**
 * Takes a request's body as Node.js's parser delivers it, before any reader sees it, up to
 * `limit` bytes (past it the socket stops being read). `release` hands the same bytes on
 * to whoever reads the request next, as if they had just arrived. Call it as the request
 * comes in, before any of its body has been parsed.
 */
export function holdRequestBody(req: IncomingMessage, limit: number): Promise<HeldBody> {
  const push = req.push;
  const chunks: Buffer[] = [];
  let size = 0;
  return new Promise((resolve) => {
    req.once('close', () => resolve({ kind: 'gone' }));
    req.push = (chunk: Buffer | null) => {
      if (chunk === null) {
        req.push = push;
        resolve({
          kind: 'held',
          body: Buffer.concat(chunks, size),
          release() {
            for (const c of chunks) push.call(req, c);
            push.call(req, null);
          },
        });
        return false;
      }
      size += chunk.length;
      if (size > limit) {
        chunks.length = 0;
        resolve({ kind: 'too_large' });
        // False stops the parser reading the socket; the refusal closes it.
        return false;
      }
      chunks.push(chunk);
      return true;
    };
  });
}
