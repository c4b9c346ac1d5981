/**
 * A stream's bytes, counted as they arrive: past `limit` the stream is cancelled, nothing more is
 * read or kept, and the answer is null. Serves requests we receive and answers we read alike.
 */
export async function readStreamCapped(stream: ReadableStream<Uint8Array> | null, limit: number): Promise<Buffer | null> {
  if (!stream) return Buffer.alloc(0);
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      return null;
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength) : Buffer.concat(chunks, size);
}
