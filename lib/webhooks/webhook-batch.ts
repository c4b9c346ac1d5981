import { ServiceError } from '../errors';

/**
 * Our own deliveries to a dashboard endpoint may travel several to a request:
 * `webhook-batch: <count>` and `{"deliveries":[{"headers":{...},"body":"..."}]}`,
 * each delivery with the headers and exact body it would carry alone.
 */
export const BATCH_HEADER = 'webhook-batch';
/** The most deliveries one batch holds, and the most bytes. */
export const MAX_BATCH_ITEMS = 128;
export const MAX_BATCH_BYTES = 2 * 1024 * 1024;
/**
 * The most bytes one delivery may take inside a batch: its 64 KB body escaped as a JSON
 * string (at most twice as long for a JSON body), and its headers. The receiver reads no
 * further than this before the delivery in hand is verified.
 */
export const MAX_BATCH_ITEM_BYTES = 2 * 64 * 1024 + 8 * 1024;

/** The receiver's answer for one delivery of a batch. */
export interface BatchItemResult {
  /** The webhook-id, when the delivery carried one. */
  id: string | null;
  /** What a request of this delivery alone would have been answered: 200, 400 or 401. */
  status: number;
  message: string;
}

export const malformedBatch = () => new ServiceError('validation_error', { body: 'A webhook batch is {"deliveries":[{"headers":{...},"body":"..."}]}.' });

const PREFIX = Buffer.from('{"deliveries":[');
const [QUOTE, BACKSLASH, OPEN, CLOSE, COMMA, END_ARRAY] = ['"', '\\', '{', '}', ',', ']'].map((c) => c.charCodeAt(0));

/**
 * Cuts a batch body, as written by the delivery worker (`JSON.stringify`, no spaces), into
 * its deliveries' JSON texts as the bytes arrive, so each can be verified before the next is
 * read. Refuses a delivery longer than MAX_BATCH_ITEM_BYTES, and anything else in the frame.
 */
export class BatchSplitter {
  private pending = Buffer.alloc(0);
  private state: 'prefix' | 'item' | 'in-item' | 'after-item' | 'closing' | 'end' = 'prefix';
  private scanned = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private items = 0;

  /** The deliveries these bytes complete, in order. */
  push(chunk: Uint8Array): Buffer[] {
    let buf = this.pending.length ? Buffer.concat([this.pending, chunk]) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const done: Buffer[] = [];
    while (buf.length > 0) {
      if (this.state === 'prefix') {
        const n = Math.min(buf.length, PREFIX.length);
        if (!buf.subarray(0, n).equals(PREFIX.subarray(0, n))) throw malformedBatch();
        if (n < PREFIX.length) break;
        buf = buf.subarray(n);
        this.state = 'item';
      } else if (this.state === 'item') {
        if (buf[0] !== OPEN || ++this.items > MAX_BATCH_ITEMS) throw malformedBatch();
        this.state = 'in-item';
        this.scanned = 0;
        this.depth = 0;
      } else if (this.state === 'in-item') {
        const end = this.itemEnd(buf);
        if (end < 0) {
          if (buf.length > MAX_BATCH_ITEM_BYTES) throw malformedBatch();
          break;
        }
        if (end > MAX_BATCH_ITEM_BYTES) throw malformedBatch();
        done.push(Buffer.from(buf.subarray(0, end)));
        buf = buf.subarray(end);
        this.state = 'after-item';
      } else if (this.state === 'after-item') {
        if (buf[0] === COMMA) this.state = 'item';
        else if (buf[0] === END_ARRAY) this.state = 'closing';
        else throw malformedBatch();
        buf = buf.subarray(1);
      } else if (this.state === 'closing') {
        if (buf[0] !== CLOSE) throw malformedBatch();
        buf = buf.subarray(1);
        this.state = 'end';
      } else throw malformedBatch();
    }
    this.pending = Buffer.from(buf);
    return done;
  }

  /** Throws unless the body ended where the batch does. */
  end(): void {
    if (this.state !== 'end') throw malformedBatch();
  }

  /** Where the object starting at buf[0] ends (exclusive), or -1 when it goes on past these bytes. */
  private itemEnd(buf: Buffer): number {
    for (let i = this.scanned; i < buf.length; i++) {
      const c = buf[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === BACKSLASH) this.escaped = true;
        else if (c === QUOTE) this.inString = false;
      } else if (c === QUOTE) this.inString = true;
      else if (c === OPEN) this.depth++;
      else if (c === CLOSE && --this.depth === 0) return i + 1;
    }
    this.scanned = buf.length;
    return -1;
  }
}
