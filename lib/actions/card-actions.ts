import { z } from 'zod';
import { shareCard } from '../messages/share-card';
import { isLargeAmount, requireConfirmation } from './confirmation';
import { cancelCard as cancelCardCore } from '../cards/cancel-card';
import { correctCardPhone } from '../cards/correct-card-phone';
import { createCard as createCardCore } from '../cards/create-card';
import { setCardStatus } from '../cards/set-card-status';
import { ServiceError } from '../errors';
import { createPayment } from '../payments/create-payment';
import { dryRun } from '../db/dry-run';
import { createTransfer, recordTransfer } from '../payouts/create-transfer';
import { toMinorUnits } from '../amount-text';
import { normaliseTypedPhone } from '../cards/phone';
import { cardRefSchema, correctPhoneFormSchema, createCardFormSchema, disableCardFormSchema, topUpFormSchema } from './cards.validation';
import { defineAction } from './define-action';
import { runOnce } from './run-once';

export const createCardAction = defineAction({
  name: 'cards.create',
  permission: 'cards:create',
  schema: createCardFormSchema,
  handler: async ({ db, session, input }) => {
    try {
      // Staff type numbers as they say them (0911 234 567); the core, like the API, takes E.164 only.
      const phone = normaliseTypedPhone(input.phone_number, session.country);
      const card = await createCardCore(db, {
        businessId: session.businessId,
        mode: session.mode,
        actor: session.actor,
        input: {
          phone_number: phone.e164,
          currency: input.currency,
          first_name: input.first_name || undefined,
          last_name: input.last_name || undefined,
        },
      });
      return { cardNumber: card.card_number };
    } catch (err) {
      // Put the core's answers on the field the user has to change.
      if (err instanceof ServiceError && err.code === 'invalid_phone_number') throw new ServiceError('validation_error', { phone_number: String(err.detail) });
      if (err instanceof ServiceError && err.code === 'user_not_found') {
        throw new ServiceError('validation_error', { first_name: 'This phone number is new to us: enter the holder’s first name.' });
      }
      throw err;
    }
  },
});

export const disableCardAction = defineAction({
  name: 'cards.disable',
  permission: 'cards:status',
  schema: disableCardFormSchema,
  handler: async ({ db, session, input }) => {
    const { card } = await setCardStatus(db, {
      businessId: session.businessId,
      mode: session.mode,
      cardNumber: input.card_number,
      actor: session.actor,
      input: { status: 'disable' },
      reason: input.reason || undefined,
    });
    return { status: card.status };
  },
});

export const enableCardAction = defineAction({
  name: 'cards.enable',
  permission: 'cards:status',
  schema: cardRefSchema,
  handler: async ({ db, session, input }) => {
    const { card } = await setCardStatus(db, {
      businessId: session.businessId,
      mode: session.mode,
      cardNumber: input.card_number,
      actor: session.actor,
      input: { status: 'enable' },
    });
    return { status: card.status };
  },
});

/** Support moves a card sent to a wrong number to the right one; its old link stops working. */
export const correctCardPhoneAction = defineAction({
  name: 'cards.correct_phone',
  permission: 'cards:status',
  schema: correctPhoneFormSchema,
  handler: async ({ db, session, input }) => {
    const phone = normaliseTypedPhone(input.phone_number, session.country);
    const card = await correctCardPhone(db, {
      businessId: session.businessId,
      mode: session.mode,
      cardNumber: input.card_number,
      actor: session.actor,
      input: { phone_number: phone.e164 },
    });
    return { card_number: card.card_number };
  },
});

export const cancelCardAction = defineAction({
  name: 'cards.cancel',
  permission: 'cards:cancel',
  schema: cardRefSchema,
  handler: ({ db, session, input }) =>
    cancelCardCore(db, { businessId: session.businessId, mode: session.mode, cardNumber: input.card_number, actor: session.actor }),
});

export type TopUpResult =
  | { source: 'business'; reference: string; amount: number }
  | { source: 'link'; linkReference: string; checkoutUrl: string; amount: number; serviceFee: number };

/**
 * A top-up from the business balance (a ledger transfer) or a hosted payment
 * link, run once per form submission (its idempotency key).
 */
export const topUpCardAction = defineAction({
  name: 'cards.top_up',
  permission: 'money:move',
  schema: topUpFormSchema,
  handler: async ({ db, session, input }) => {
    const amount = toMinorUnits(input.amount);
    const base = { businessId: session.businessId, mode: session.mode, actor: session.actor };
    const transfer = { ...base, input: { amount, bank_slug: 'link', account_number: input.card_number, account_name: `Top-up by ${session.email}` } };
    // Before asking for a yes, the top-up's own refusal (too little in the business account), never after it.
    if (input.source === 'business' && isLargeAmount(amount) && input.confirmed !== true) await dryRun(db, (on) => recordTransfer(on, transfer));
    requireConfirmation(isLargeAmount(amount), input.confirmed);
    return runOnce(
      db,
      session,
      { action: 'cards.top_up', submissionId: input.submission_id, input: [input.card_number, input.source, amount] },
      async (): Promise<TopUpResult> => {
        if (input.source === 'business') {
          const made = await createTransfer(db, transfer);
          return { source: 'business', reference: made.provider_reference, amount };
        }
        const payment = await createPayment(db, { ...base, input: { type: 'hosted', amount, card_number: input.card_number } });
        return { source: 'link', linkReference: payment.link_reference, checkoutUrl: payment.checkout_url!, amount, serviceFee: payment.service_fee };
      },
    );
  },
});

/** Support sends the holder a new link to the card's page by SMS or email (the old link stops working). */
export const resendCardLinkAction = defineAction({
  name: 'cards.resendLink',
  permission: 'cards:status',
  schema: cardRefSchema.extend({ channel: z.enum(['sms', 'email'], { error: 'channel must be sms or email.' }) }),
  handler: async ({ db, session, input }) => {
    const shared = await shareCard(db, {
      businessId: session.businessId,
      mode: session.mode,
      cardNumber: input.card_number,
      input: { channel: input.channel },
    });
    return { status: shared.status, message_reference: shared.message_reference };
  },
});
