'use server';

import { redirect } from 'next/navigation';
import { parseAmountText, toMinorUnits } from '@/lib/amount-text';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { topUpFromCardPage } from '@/lib/payments/top-up-from-card-page';

/** Why the card page could not start a payment, named for its catalogue (CardPage.addMoney.errors). */
export type AddMoneyState = { error: 'amount' | 'limit' | 'closed' | 'unavailable' } | null;

const REFUSALS: Partial<Record<string, NonNullable<AddMoneyState>['error']>> = {
  validation_error: 'amount',
  limit_exceeded: 'limit',
  card_disabled: 'closed',
  card_not_found: 'closed',
  payment_request_failed: 'unavailable',
};

/** "Add money": a hosted payment to the link's card, then its checkout, which links back to the card (`?card`). */
export async function addMoneyOnCardPage(_state: AddMoneyState, formData: FormData): Promise<AddMoneyState> {
  const field = (name: string) => (formData instanceof FormData ? String(formData.get(name) ?? '') : '');
  const token = field('token');
  const lang = field('lang');
  const amount = parseAmountText(field('amount'));
  if (!amount.ok) return { error: 'amount' };
  let reference: string;
  try {
    reference = await topUpFromCardPage(getDb(), { token, amount: toMinorUnits(amount.text) });
  } catch (err) {
    const refused = err instanceof ServiceError ? REFUSALS[err.code] : undefined;
    if (refused) return { error: refused };
    throw err;
  }
  const query = new URLSearchParams({ card: token, ...(lang === 'am' || lang === 'en' ? { lang } : {}) });
  redirect(`/checkout/${encodeURIComponent(reference)}?${query}`);
}
