import type { DeliveryAttempt, DeliveryLogEntry } from '@/lib/dashboard/list-delivery-log';

const EVENT_WORDS: Record<string, string> = {
  'payout.success': 'Payout succeeded',
  'payout.failed': 'Payout failed',
  'payment.success': 'Payment succeeded',
  'payment.failed': 'Payment failed',
  'payment.cancelled': 'Payment cancelled',
  'payment.refunded': 'Payment refunded',
  'payment.refund_failed': 'Refund failed',
  'card.redeemed': 'Card redeemed',
  'hold.created': 'Hold placed',
  'hold.captured': 'Hold captured',
  'hold.voided': 'Hold voided',
  'hold.expired': 'Hold expired',
  'card.expired': 'Card expired',
};

export const eventWords = (type: string) => EVENT_WORDS[type] ?? 'Event';

/** Why one attempt did not count as delivered, in plain words. */
export function attemptProblem(a: DeliveryAttempt): string {
  if (a.statusCode !== null) {
    if (a.statusCode === 410) return 'your endpoint answered 410 Gone, so sending to it has stopped';
    if (a.statusCode >= 300 && a.statusCode < 400) return `your endpoint answered with a redirect (${a.statusCode}); redirects are not followed`;
    return `your endpoint answered with status ${a.statusCode} instead of a 2xx`;
  }
  const e = a.error ?? '';
  if (/timed out/i.test(e)) return 'your endpoint did not answer in time';
  if (/ECONNREFUSED/.test(e)) return 'nothing at your webhook address accepted the connection';
  if (/ENOTFOUND|EAI_AGAIN/.test(e)) return 'the host name of your webhook address could not be found';
  if (/ECONNRESET|socket hang up/i.test(e)) return 'your endpoint closed the connection before answering';
  if (/certificate|SSL|TLS/i.test(e)) return "your endpoint's security certificate was not accepted";
  if (/non-public/.test(e)) return 'it was not accepted (details are not shown for addresses that are not public)';
  if (/^refused: /.test(e)) return `the address was refused (${e.slice(9)})`;
  return e ? `it could not be sent (${e})` : 'your endpoint did not accept it';
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A delivery's state as a sentence: delivered, waiting, retrying and why, or given up and why. */
export function deliveryExplanation(d: DeliveryLogEntry): string {
  const last = d.attempts[0];
  if (d.state === 'delivered') return 'Delivered: your endpoint accepted it.';
  if (d.state === 'failed') {
    return last
      ? `Not delivered: gave up after ${plural(d.attempts.length, 'attempt')}; the last failed because ${attemptProblem(last)}. Fix the endpoint, then replay.`
      : 'Not delivered: your webhook URL was turned off when this event happened. Save the URL again, then replay.';
  }
  if (!last) return 'Waiting to be sent.';
  return `Not delivered yet: the last attempt failed because ${attemptProblem(last)}. It will be tried again.`;
}
