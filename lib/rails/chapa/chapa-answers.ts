import { unitsText } from '../../money-text';
/**
 * Reading Chapa's answers: strict where money depends on them, lenient where its
 * docs disagree with themselves (amounts as numbers or strings, a `status` field
 * or none, messages as text or as objects of field errors).
 */

export type ChapaBody = Record<string, unknown>;

const MAJOR_AMOUNT = /^(\d{1,15})(?:\.(\d+))?$/;

/**
 * An amount in currency units ("100", "100.5", 100.25, "1,000.00") as integer minor
 * units, or null when it is not exactly representable in cents. Never goes through
 * floating point arithmetic: a number is read through its shortest decimal text.
 */
export function parseMinorUnits(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim().replace(/,(?=\d{3}(?:\D|$))/g, '');
  } else return null;
  const match = MAJOR_AMOUNT.exec(text);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  // "10.500" is 10.50; "10.505" is not a cent amount and is refused rather than rounded.
  if (fraction.length > 2 && /[^0]/.test(fraction.slice(2))) return null;
  const cents = Number(`${fraction}00`.slice(0, 2));
  const minor = Number(whole) * 100 + cents;
  return Number.isSafeInteger(minor) ? minor : null;
}

/** Integer minor units as the decimal text Chapa expects ("123.45"). */
export function toMajorUnits(minor: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`not an amount in minor units: ${minor}`);
  return unitsText(minor);
}

/** The body's `status`, lower-cased, or null when there is none. */
export function answerStatus(body: unknown): string | null {
  const status = (body as ChapaBody | null)?.status;
  return typeof status === 'string' ? status.trim().toLowerCase() : null;
}

/** Chapa's human message: a string, or an object of field errors flattened into one line. */
export function answerMessage(body: unknown): string | null {
  const message = (body as ChapaBody | null)?.message;
  if (typeof message === 'string') return message.trim().slice(0, 500) || null;
  if (message && typeof message === 'object') {
    const parts = Object.entries(message as Record<string, unknown>).map(([field, v]) => `${field}: ${Array.isArray(v) ? v.join(' ') : String(v)}`);
    return parts.join('; ').slice(0, 500) || null;
  }
  return null;
}

/** `data` when it is an object (Chapa wraps most answers in it), else the body itself. */
export function answerData(body: unknown): ChapaBody {
  const data = (body as ChapaBody | null)?.data;
  if (data && typeof data === 'object' && !Array.isArray(data)) return data as ChapaBody;
  return body && typeof body === 'object' ? (body as ChapaBody) : {};
}

export const textField = (o: ChapaBody, key: string): string | null => {
  const v = o[key];
  if (typeof v === 'string') return v.trim() || null;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
};

/** What verify says about one transaction, strictly: anything unreadable is `unreadable`, never success. */
export type VerifiedTransaction =
  | {
      state: 'success' | 'failed' | 'pending';
      txRef: string;
      amount: number;
      currency: string;
      chapaReference: string | null;
      mode: string | null;
      raw: string;
    }
  | { state: 'unreadable'; reason: string };

const SUCCESS = new Set(['success', 'successful']);
const FAILED = new Set(['failed', 'failure', 'cancelled', 'canceled', 'reversed', 'refunded', 'expired']);
const PENDING = new Set(['pending', 'processing', 'initiated', 'ongoing']);

/** GET /transaction/verify/{tx_ref}'s `data`: status, tx_ref, amount and currency must all be there and readable. */
export function readVerifiedTransaction(body: unknown): VerifiedTransaction {
  const data = (body as ChapaBody | null)?.data;
  if (!data || typeof data !== 'object') return { state: 'unreadable', reason: 'verify answered without data' };
  const d = data as ChapaBody;
  const status = typeof d.status === 'string' ? d.status.trim().toLowerCase() : '';
  const state = SUCCESS.has(status) ? 'success' : FAILED.has(status) ? 'failed' : PENDING.has(status) ? 'pending' : null;
  if (!state) return { state: 'unreadable', reason: `verify answered an unknown status ${JSON.stringify(d.status)}` };
  const txRef = textField(d, 'tx_ref');
  if (!txRef) return { state: 'unreadable', reason: 'verify answered without tx_ref' };
  const amount = parseMinorUnits(d.amount);
  if (amount === null) return { state: 'unreadable', reason: `verify answered an unreadable amount ${JSON.stringify(d.amount)}` };
  const currency = textField(d, 'currency')?.toUpperCase();
  if (!currency) return { state: 'unreadable', reason: 'verify answered without currency' };
  return {
    state,
    txRef,
    amount,
    currency,
    chapaReference: textField(d, 'reference'),
    mode: textField(d, 'mode'),
    raw: `${status} ${textField(d, 'amount')} ${currency}`,
  };
}
