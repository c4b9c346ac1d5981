'use server';

import { redirect } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { completePayment } from '@/lib/payments/complete-payment';
import type { PaymentOutcome } from '@/lib/payments/payment-view';

const OUTCOMES: readonly string[] = ['success', 'failed', 'cancelled'] satisfies PaymentOutcome[];

/** The test-mode buttons: only a hosted test payment can be finished here, and only once. */
export async function completeCheckout(formData: FormData): Promise<void> {
  // Anyone can post to an action: a body that is not the page's form is nothing to complete.
  const field = (name: string) => (formData instanceof FormData ? String(formData.get(name) ?? '') : '');
  const reference = field('reference');
  const outcome = field('outcome');
  if (reference && OUTCOMES.includes(outcome)) {
    try {
      await completePayment(getDb(), {
        linkReference: reference,
        outcome: outcome as PaymentOutcome,
        actor: { type: 'system', id: 'checkout-page' },
        type: 'hosted',
        mode: 'test',
      });
    } catch (err) {
      if (!(err instanceof ServiceError && err.code === 'payment_not_found')) throw err;
    }
  }
  // The page keeps the language its reader picked with ?lang (am or en, nothing else).
  const lang = field('lang');
  // And the card link it was opened from, which the page checks before offering the way back.
  const card = field('card');
  const query = new URLSearchParams({ ...(lang === 'am' || lang === 'en' ? { lang } : {}), ...(/^[0-9A-Za-z]{43}$/.test(card) ? { card } : {}) }).toString();
  redirect(`/checkout/${encodeURIComponent(reference)}${query ? `?${query}` : ''}`);
}
