import { useTranslations } from 'next-intl';
import type { DeliveryAttempt, DeliveryLogEntry } from '@/lib/dashboard/list-delivery-log';

const EVENT_TYPES = new Set([
  'payout.success',
  'payout.failed',
  'payment.success',
  'payment.failed',
  'payment.cancelled',
  'payment.refunded',
  'payment.refund_failed',
  'card.redeemed',
  'hold.created',
  'hold.captured',
  'hold.voided',
  'hold.expired',
  'card.expired',
]);
const SUBJECTS = new Set(['Payment', 'Payout', 'Redemption', 'Hold', 'Card']);

/** The delivery log's sentences in the reader's language: an event's name, why an attempt failed, a delivery's state. */
export function useDeliveryWords() {
  const t = useTranslations('DevelopersLog');

  const eventWords = (type: string) => (EVENT_TYPES.has(type) ? t(`events.${type.replace('.', '_')}`) : t('events.other'));
  const subjectWords = (label: string) => (SUBJECTS.has(label) ? t(`subjects.${label}`) : t('subjects.Event'));

  /** Why one attempt did not count as delivered, in plain words. */
  const attemptProblem = (a: DeliveryAttempt): string => {
    if (a.statusCode !== null) {
      if (a.statusCode === 410) return t('problems.gone');
      if (a.statusCode >= 300 && a.statusCode < 400) return t('problems.redirect', { status: a.statusCode });
      return t('problems.status', { status: a.statusCode });
    }
    const e = a.error ?? '';
    if (/timed out/i.test(e)) return t('problems.timeout');
    if (/ECONNREFUSED/.test(e)) return t('problems.refused');
    if (/ENOTFOUND|EAI_AGAIN/.test(e)) return t('problems.notFound');
    if (/ECONNRESET|socket hang up/i.test(e)) return t('problems.reset');
    if (/certificate|SSL|TLS/i.test(e)) return t('problems.certificate');
    if (/non-public/.test(e)) return t('problems.notPublic');
    if (/^refused: /.test(e)) return t('problems.addressRefused', { reason: e.slice(9) });
    return e ? t('problems.other', { error: e }) : t('problems.notAccepted');
  };

  /** A delivery's state as a sentence: delivered, waiting, retrying and why, or given up and why. */
  const deliveryExplanation = (d: DeliveryLogEntry): string => {
    const last = d.attempts[0];
    if (d.state === 'delivered') return t('states.delivered');
    if (d.state === 'failed') {
      return last ? t('states.gaveUp', { count: d.attempts.length, problem: attemptProblem(last) }) : t('states.noEndpoint');
    }
    if (!last) return t('states.waiting');
    return t('states.retrying', { problem: attemptProblem(last) });
  };

  return { eventWords, subjectWords, attemptProblem, deliveryExplanation };
}
