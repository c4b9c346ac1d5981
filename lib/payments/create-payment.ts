import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../audit';
import { requireOwnCard } from '../cards/get-card';
import { ACTIVE } from '../cards/card-status';
import { normalisePhone } from '../cards/phone';
import { readSettings } from '../config';
import type { Db, Tx } from '../db/client';
import { bumpCounter } from '../db/list-counters';
import { businesses, payments } from '../db/schema';
import { inTransaction, pgConstraint } from '../db/transaction';
import { ServiceError, type FieldErrors } from '../errors';
import { serviceFee } from '../fees/fee-schedule';
import { newReference } from '../ids';
import type { Actor } from '../actor';
import { LIVE_NOT_CONFIGURED, type CheckoutCustomer, type CheckoutPort, type DirectChargeRequest } from '../providers/provider-port';
import { assertWalletRail, providerFor, requestWalletCharge } from '../providers/provider-registry';
import { walletsFor } from '../providers/sandbox';
import { amountSchema, parseInput, type Currency, type Mode } from '../validation';
import { announceCreated } from '../webhooks/live-updates';
import { assertCardCanTake } from '../limits/card-headroom';
import { countedCall } from '../observability/metrics';
import { completePayment } from './complete-payment';
import { nextActionMessage } from './live-payment';
import { liveTiming } from './verify-live-payment';
import type { PaymentType } from './payment-view';
import { logger } from '../observability/logger';

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string.` })
    .trim()
    .min(1, { error: `${field} must not be empty.` })
    .max(max, { error: `${field} must be at most ${max} characters.` })
    .nullish();

export const createPaymentSchema = z.object({
  type: z.enum(['hosted', 'direct-charge'], { error: 'type must be hosted or direct-charge.' }),
  amount: amountSchema,
  card_number: z
    .string({ error: (iss) => (iss.input === undefined ? 'card_number is required.' : 'card_number must be a string.') })
    .trim()
    .min(1, { error: 'card_number is required.' })
    .max(64, { error: 'card_number is too long.' }),
  merchant_reference: optionalText('merchant_reference', 255),
  phone_number: optionalText('phone_number', 32),
  payment_method: optionalText('payment_method', 64),
});

export interface CreatePaymentOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  input: unknown;
}

export interface CreatedPayment {
  link_reference: string;
  status: 'PENDING';
  amount: number;
  service_fee: number;
  currency: string;
  card_number: string;
  merchant_reference?: string;
  checkout_url?: string;
  payment_method?: string;
  /** Live direct charges: what the customer must do now (approve the push on their phone, or give the OTP). */
  next_action?: { type: 'ussd' | 'otp'; message: string };
}

/** Starts a top-up of one of the business's active cards: a hosted checkout link, or a charge pushed to a wallet. */
export async function createPayment(db: Db, opts: CreatePaymentOptions): Promise<CreatedPayment> {
  const input = parseInput(createPaymentSchema, opts.input);
  return countedCall('payments', { type: input.type, mode: opts.mode }, () => startPayment(db, opts, input));
}

async function startPayment(db: Db, opts: CreatePaymentOptions, input: z.infer<typeof createPaymentSchema>): Promise<CreatedPayment> {
  const type: PaymentType = input.type;
  if (type === 'direct-charge') {
    const missing: FieldErrors = {};
    if (!input.phone_number) missing.phone_number = 'phone_number is required for a direct charge.';
    if (!input.payment_method) missing.payment_method = 'payment_method is required for a direct charge.';
    if (Object.keys(missing).length) throw new ServiceError('validation_error', missing);
  }

  const card = await requireOwnCard(db, opts.businessId, opts.mode, input.card_number);
  if (card.status !== ACTIVE) throw new ServiceError('card_disabled', 'The gift card is disabled and cannot receive payments.');

  let phone: string | null = null;
  let paymentMethod: string | null = null;
  if (type === 'direct-charge') {
    phone = normalisePhone(input.phone_number!).e164;
    const wallets = walletsFor(card.currency);
    if (!wallets.some((w) => w.slug === input.payment_method)) {
      throw new ServiceError('validation_error', {
        payment_method: `payment_method must be a wallet slug from GET /banks that accepts ${card.currency}: ${wallets.map((w) => w.slug).join(', ') || 'none'}.`,
      });
    }
    paymentMethod = input.payment_method!;
    const chargeable = opts.mode === 'live' ? liveCheckout('No charge was requested.').chargeableWallets : null;
    if (!chargeable) assertWalletRail(opts.mode);
    if (chargeable && !chargeable.includes(paymentMethod)) {
      throw new ServiceError('validation_error', {
        payment_method: `payment_method must be a wallet Chapa can charge in live mode: ${chargeable.join(', ')}.`,
      });
    }
  } else if (opts.mode === 'live') {
    liveCheckout('No payment link was created.');
  }

  const fee = await serviceFee(db, opts.businessId, opts.mode, 'payment', input.amount);
  const linkReference = newReference('pay');
  const live = opts.mode === 'live' ? liveCheckout('') : null;
  // Hosted live: Chapa's page exists before our record does, so a refused or unanswered initialize leaves nothing behind.
  const providerCheckoutUrl =
    live && type === 'hosted'
      ? await live.startHostedCheckout({
          linkReference,
          total: input.amount + fee,
          currency: card.currency,
          businessName: await businessName(db, opts.businessId),
          card,
          appUrl: readSettings().appUrl,
        })
      : null;
  try {
    await inTransaction(db, async (tx) => {
      await assertCardCanTake(tx, card, input.amount);
      await tx.insert(payments).values({
        businessId: opts.businessId,
        mode: opts.mode,
        type,
        status: 'pending',
        linkReference,
        merchantReference: input.merchant_reference ?? null,
        currency: card.currency,
        amount: input.amount,
        serviceFee: fee,
        paymentMethod,
        phoneNumber: phone,
        cardId: card.id,
        cardNumber: card.card_number,
        actorType: opts.actor.type,
        actorId: opts.actor.id,
        providerCheckoutUrl,
        // Live payments are verified on a schedule until Chapa settles them or their time runs out.
        ...(live ? { nextVerifyAt: new Date(Date.now() + liveTiming().intervalMs), verifyState: 'awaiting' } : {}),
      });
      await bumpCounter(tx, opts.businessId, opts.mode, 'payments', 1);
      await recordAudit(tx, {
        businessId: opts.businessId,
        mode: opts.mode,
        actor: opts.actor,
        action: 'payment.created',
        target: linkReference,
        details: { type, amount: input.amount, service_fee: fee, card_number: card.card_number },
      });
    });
  } catch (err) {
    if (pgConstraint(err) === 'payments_merchant_reference_idx') {
      throw new ServiceError('duplicate_merchant_reference', 'A payment with this merchant_reference already exists.');
    }
    throw err;
  }
  announceCreated(db, opts.businessId, opts.mode, 'payment', linkReference);
  // Recorded first: a customer is never asked to pay for a payment that does not exist.
  let nextAction: CreatedPayment['next_action'];
  if (type === 'direct-charge' && live)
    nextAction = await pushLiveCharge(db, live, opts, {
      linkReference,
      paymentMethod: paymentMethod!,
      phoneNumber: phone!,
      total: input.amount + fee,
      currency: card.currency,
      card,
    });
  else if (type === 'direct-charge')
    await pushWalletCharge(db, opts, {
      linkReference,
      paymentMethod: paymentMethod!,
      phoneNumber: phone!,
      amount: input.amount + fee,
      currency: card.currency,
    });

  return {
    link_reference: linkReference,
    status: 'PENDING',
    amount: input.amount,
    service_fee: fee,
    currency: card.currency,
    card_number: card.card_number,
    ...(input.merchant_reference ? { merchant_reference: input.merchant_reference } : {}),
    ...(type === 'hosted' ? { checkout_url: `${readSettings().appUrl}/checkout/${linkReference}` } : { payment_method: paymentMethod! }),
    ...(nextAction ? { next_action: nextAction } : {}),
  };
}

/** Live mode's provider, or the SPEC's 502 with why when live rails are off. */
function liveCheckout(nothingDone: string): CheckoutPort {
  const checkout = providerFor('live')?.checkout;
  if (!checkout) throw new ServiceError('payment_request_failed', `${LIVE_NOT_CONFIGURED}${nothingDone ? ` ${nothingDone}` : ''}`);
  return checkout;
}

async function businessName(db: Db, businessId: number): Promise<string> {
  const [row] = await db.select({ name: businesses.name }).from(businesses).where(eq(businesses.id, businessId));
  return row?.name ?? '';
}

async function pushLiveCharge(db: Db, live: CheckoutPort, opts: CreatePaymentOptions, charge: DirectChargeRequest): Promise<CreatedPayment['next_action']> {
  const outcome = await live.requestDirectCharge(charge);
  if (outcome.kind === 'refused') {
    await completePayment(db, {
      linkReference: charge.linkReference,
      mode: 'live',
      outcome: 'failed',
      actor: opts.actor,
      failureReason: `Chapa refused the charge: ${outcome.message}.`,
    });
    throw new ServiceError('payment_request_failed', `Chapa refused the charge (${outcome.message}); the payment failed and nothing was charged.`);
  }
  if (outcome.kind === 'unknown') {
    // The push may have reached the phone: the payment stays pending and Chapa's verify settles it (or its time runs out).
    await db
      .update(payments)
      .set({ verifyState: 'unavailable', verifyNote: `The charge request got no answer from Chapa: ${outcome.reason}.` })
      .where(eq(payments.linkReference, charge.linkReference));
    throw new ServiceError(
      'payment_request_failed',
      `Chapa did not answer the charge request (${outcome.reason}). Payment ${charge.linkReference} stays pending until Chapa's verify settles it; its webhook will tell.`,
    );
  }
  const message = nextActionMessage(outcome.nextAction, charge.linkReference);
  await db
    .update(payments)
    .set({ providerNextAction: outcome.nextAction, providerRequestId: outcome.requestId, providerReference: outcome.providerReference })
    .where(and(eq(payments.linkReference, charge.linkReference), eq(payments.status, 'pending')));
  return { type: outcome.nextAction, message };
}

async function pushWalletCharge(
  db: Db,
  opts: CreatePaymentOptions,
  charge: { linkReference: string; paymentMethod: string; phoneNumber: string; amount: number; currency: string },
) {
  let settleAfter: Date | null;
  try {
    ({ settleAfter } = await requestWalletCharge({ mode: opts.mode, reference: charge.linkReference, ...charge }));
  } catch (err) {
    logger.error({ err }, `wallet rail refused payment ${charge.linkReference}`);
    await completePayment(db, { linkReference: charge.linkReference, outcome: 'failed', actor: opts.actor });
    throw new ServiceError('payment_request_failed', 'The wallet rail refused the charge; the payment failed and nothing was charged.');
  }
  if (settleAfter) {
    await db
      .update(payments)
      .set({ settleAfter })
      .where(and(eq(payments.linkReference, charge.linkReference), eq(payments.status, 'pending')));
  }
}

export interface OrderPaymentOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  amount: number;
  currency: Currency;
  payer: CheckoutCustomer;
  merchantReference: string;
  /** Writes what the payment is for in the payment's own transaction (a shop order); before it, the limit check. */
  record: (tx: Tx, paymentId: number) => Promise<void>;
}

/**
 * A hosted payment with no card yet (a shop order's): the card it credits is found or issued when it is paid
 * (lib/shop/fulfil-order.ts, from completePayment). Otherwise it is made as every hosted payment is: the
 * business's fee on top, Chapa's page first in live mode, verified on the same schedule.
 */
export async function createOrderPayment(db: Db, opts: OrderPaymentOptions): Promise<{ linkReference: string; checkoutUrl: string; serviceFee: number }> {
  const live = opts.mode === 'live' ? liveCheckout('No payment link was created.') : null;
  const fee = await serviceFee(db, opts.businessId, opts.mode, 'payment', opts.amount);
  const linkReference = newReference('pay');
  const providerCheckoutUrl = live
    ? await live.startHostedCheckout({
        linkReference,
        total: opts.amount + fee,
        currency: opts.currency,
        businessName: await businessName(db, opts.businessId),
        card: opts.payer,
        appUrl: readSettings().appUrl,
      })
    : null;
  await inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(payments)
      .values({
        businessId: opts.businessId,
        mode: opts.mode,
        type: 'hosted',
        status: 'pending',
        linkReference,
        merchantReference: opts.merchantReference,
        currency: opts.currency,
        amount: opts.amount,
        serviceFee: fee,
        actorType: opts.actor.type,
        actorId: opts.actor.id,
        providerCheckoutUrl,
        ...(live ? { nextVerifyAt: new Date(Date.now() + liveTiming().intervalMs), verifyState: 'awaiting' } : {}),
      })
      .returning({ id: payments.id });
    await opts.record(tx, row.id);
    await bumpCounter(tx, opts.businessId, opts.mode, 'payments', 1);
    await recordAudit(tx, {
      businessId: opts.businessId,
      mode: opts.mode,
      actor: opts.actor,
      action: 'payment.created',
      target: linkReference,
      details: { type: 'hosted', amount: opts.amount, service_fee: fee, merchant_reference: opts.merchantReference },
    });
  });
  announceCreated(db, opts.businessId, opts.mode, 'payment', linkReference);
  return { linkReference, checkoutUrl: `${readSettings().appUrl}/checkout/${linkReference}`, serviceFee: fee };
}
