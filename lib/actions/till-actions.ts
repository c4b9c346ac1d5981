import { toMinorUnits } from '../amount-text';
import type { DashboardSession } from '../auth/session-types';
import { findTillCards } from '../dashboard/till';
import { dryRun } from '../db/dry-run';
import { captureHold } from '../holds/capture-hold';
import { placeTillHold } from '../holds/place-till-hold';
import { requireTillHold } from '../holds/till-hold-view';
import { voidHold } from '../holds/void-hold';
import { redeemCard } from '../redemptions/redeem-card';
import { confirmSpend } from '../spend-codes/confirm-spend';
import { isLargeAmount, requireConfirmation } from './confirmation';
import { defineAction } from './define-action';
import { runOnce } from './run-once';
import { spendCodeFormSchema } from './spend-code.validation';
import { tillCaptureSchema, tillFindSchema, tillMoneySchema, tillVoidSchema } from './till.validation';

/** Money moved at the till is recorded at the person's branch (a cashier's cannot be anywhere else). */
const at = (session: DashboardSession) => ({ ...(session.locationId != null && { location_id: session.locationId }) });

export const tillFindAction = defineAction({
  name: 'till.find',
  permission: 'till',
  schema: tillFindSchema,
  handler: ({ db, session, input }) => findTillCards(db, { businessId: session.businessId, mode: session.mode, country: session.country, query: input.query }),
});

export const tillRedeemAction = defineAction({
  name: 'till.redeem',
  permission: 'till',
  schema: tillMoneySchema,
  handler: async ({ db, session, input }) => {
    const amount = toMinorUnits(input.amount);
    const redeem = (on: typeof db) =>
      redeemCard(on, { businessId: session.businessId, mode: session.mode, actor: session.actor, cardNumber: input.card_number, amount, ...at(session) });
    if (isLargeAmount(amount) && input.confirmed !== true) await dryRun(db, redeem);
    requireConfirmation(isLargeAmount(amount), input.confirmed);
    return runOnce(db, session, { action: 'till.redeem', submissionId: input.submission_id, input: [input.card_number, amount] }, () => redeem(db));
  },
});

export const tillHoldAction = defineAction({
  name: 'till.hold',
  permission: 'till',
  schema: tillMoneySchema,
  handler: async ({ db, session, input }) => {
    const amount = toMinorUnits(input.amount);
    const hold = (on: typeof db) =>
      placeTillHold(on, {
        businessId: session.businessId,
        mode: session.mode,
        actor: session.actor,
        cardNumber: input.card_number,
        amount,
        // A counter's hold lasts the day: a fuel pump, a table.
        expires_in_seconds: 24 * 60 * 60,
        ...at(session),
      });
    if (isLargeAmount(amount) && input.confirmed !== true) await dryRun(db, hold);
    requireConfirmation(isLargeAmount(amount), input.confirmed);
    return runOnce(db, session, { action: 'till.hold', submissionId: input.submission_id, input: [input.card_number, amount] }, () => hold(db));
  },
});

export const tillCaptureAction = defineAction({
  name: 'till.capture',
  permission: 'till',
  schema: tillCaptureSchema,
  handler: async ({ db, session, input }) => {
    const held = await requireTillHold(db, session.businessId, session.mode, input.hold_reference);
    const amount = input.amount === undefined ? Number(held.amount) : toMinorUnits(input.amount);
    requireConfirmation(isLargeAmount(amount), input.confirmed);
    return runOnce(db, session, { action: 'till.capture', submissionId: input.submission_id, input: [input.hold_reference, amount] }, () =>
      captureHold(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, reference: input.hold_reference, amount, ...at(session) }),
    );
  },
});

export const tillVoidAction = defineAction({
  name: 'till.void',
  permission: 'till',
  schema: tillVoidSchema,
  handler: ({ db, session, input }) =>
    voidHold(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, reference: input.hold_reference }),
});

/** A redemption or capture over the business's code threshold, completed with the code the cardholder reads out. */
export const tillConfirmAction = defineAction({
  name: 'till.confirm',
  permission: 'till',
  schema: spendCodeFormSchema,
  handler: ({ db, session, input }) =>
    confirmSpend(db, { businessId: session.businessId, mode: session.mode, actor: session.actor, reference: input.confirmation_reference, code: input.code }),
});
