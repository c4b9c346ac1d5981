'use server';

import { redirect } from 'next/navigation';
import { parseAmountText, toMinorUnits } from '@/lib/amount-text';
import { getDb } from '@/lib/db/client';
import { ServiceError } from '@/lib/errors';
import { topUpFromCardPage } from '@/lib/payments/top-up-from-card-page';

/** Why the card page could not start a payment, named for its catalogue (CardPage.addMoney.errors). */
export type AddMoneyRefusal = 'amount' | 'limit' | 'closed' | 'unavailable';
const REFUSALS: Partial<Record<string, AddMoneyRefusal>> = {
  validation_error: 'amount',
  limit_exceeded: 'limit',
  card_disabled: 'closed',
  card_not_found: 'closed',
  payment_request_failed: 'unavailable',
};

/**
 * "Add money": a hosted payment to the link's card, then its checkout, which links back to the card (`?card`).
 * A plain form post, so it works before the page's script has loaded; a refusal goes back to the card page, which says why.
 */
export async function addMoneyOnCardPage(formData: FormData): Promise<void> {
  const field = (name: string) => (formData instanceof FormData ? String(formData.get(name) ?? '') : '');
  const token = field('token');
  const lang = field('lang') === 'am' || field('lang') === 'en' ? field('lang') : undefined;
  const back = (error: AddMoneyRefusal) =>
    redirect(`/c/${encodeURIComponent(token)}?${new URLSearchParams({ ...(lang && { lang }), add_money: error })}#add-money`);
  const amount = parseAmountText(field('amount'));
  if (!amount.ok) back('amount');
  let reference: string;
  try {
    reference = await topUpFromCardPage(getDb(), { token, amount: toMinorUnits(amount.ok ? amount.text : '0') });
  } catch (err) {
    const refused = err instanceof ServiceError ? REFUSALS[err.code] : undefined;
    if (refused) back(refused);
    throw err;
  }
  redirect(`/checkout/${encodeURIComponent(reference)}?${new URLSearchParams({ card: token, ...(lang && { lang }) })}`);
}
