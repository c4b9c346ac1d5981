/**
 * Our own deliveries to a dashboard endpoint may travel several to a request:
 * `webhook-batch: <count>` and `{"deliveries":[{"headers":{...},"body":"..."}]}`,
 * each delivery with the headers and exact body it would carry alone.
 */
export const BATCH_HEADER = 'webhook-batch';
/** The most deliveries one batch holds, and the most bytes. */
export const MAX_BATCH_ITEMS = 32;
export const MAX_BATCH_BYTES = 2 * 1024 * 1024;

/** The receiver's answer for one delivery of a batch. */
export interface BatchItemResult {
  /** The webhook-id, when the delivery carried one. */
  id: string | null;
  /** What a request of this delivery alone would have been answered: 200, 400 or 401. */
  status: number;
  message: string;
}
