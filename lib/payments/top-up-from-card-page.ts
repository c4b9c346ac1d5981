import { cardOfLinkToken } from '../cards/card-links';
import type { Db } from '../db/client';
import { ServiceError } from '../errors';
import { createPayment } from './create-payment';

/**
 * "Add money" on the card's page: a hosted payment to the card its link opens, made as the API's would be
 * (the business's limits and fees, the sandbox in test mode, Chapa in live). Answers its checkout's reference.
 */
export async function topUpFromCardPage(db: Db, opts: { token: string; amount: number }): Promise<string> {
  const card = await cardOfLinkToken(db, opts.token);
  if (!card) throw new ServiceError('card_not_found', 'This card link no longer opens a card.');
  const payment = await createPayment(db, {
    businessId: card.businessId,
    mode: card.mode,
    actor: { type: 'system', id: 'card-page' },
    input: { type: 'hosted', amount: opts.amount, card_number: card.cardNumber },
  });
  return payment.link_reference;
}

/** Whether a checkout was opened from this card link: its page then offers the way back to the card. */
export async function linkOpensCard(db: Db, token: string, cardId: number): Promise<boolean> {
  return (await cardOfLinkToken(db, token))?.cardId === cardId;
}
