import { payoutNeedsConfirmation, requireConfirmation } from './confirmation';
import { eq } from 'drizzle-orm';
import { requireOwnCard } from '../cards/get-card';
import { businesses } from '../db/schema';
import type { ErrorCode, ServiceError } from '../errors';
import { findBank } from '../providers/banks';
import { sendDashboardPayout } from '../approvals/dashboard-payout';
import { dryRun } from '../db/dry-run';
import { writeRequestedPayout } from '../payouts/create-payout';
import { parsePayoutRequest } from '../payouts/payout-request';
import { payoutParties } from '../payouts/payout-parties';
import { merchantRefusal, type PayoutQuote, payerRule, quotePayout } from '../payouts/payout-quote';
import { previewRecipient, type RecipientPreview } from '../payouts/recipient-preview';
import type { Currency } from '../validation';
import { groupedUnitsText } from '../money-text';
import { defineAction } from './define-action';
import { lookupRecipientSchema, previewPayoutSchema, sendPayoutSchema, toPayoutRequest } from './payout.validation';
import { runOnce } from './run-once';

/** A check the payout would fail, said for the form: the core's code, the field it concerns, and plain words. */
export interface PayoutRefusal {
  code: ErrorCode;
  field: string | null;
  message: string;
}

interface PreviewBase {
  currency: Currency;
  balance: number;
  /** The source card can pay out (active). */
  active: boolean;
  /** Every check the payout would fail now, in the payout's order; empty when it would go through. */
  refusals: PayoutRefusal[];
  /** A B2B payout's destination by its public name, once the merchant id is one of another business. */
  merchantName?: string;
}

/** The payout's own quote (the same fee, debit and credit the payout will use), and whether the card holds the debit. */
type QuoteFigures = Pick<PayoutQuote, 'amount' | 'fee' | 'chargePayer' | 'feeFromAmount' | 'debit' | 'credit'> & { sufficient: boolean };

export type PayoutPreview = PreviewBase & (QuoteFigures | { amount: null });

/** A refusal in the dashboard's words: amounts in currency units, banks by name. */
function refusalFor(err: ServiceError, currency: Currency, fee: number, bankSlug: string | undefined): PayoutRefusal {
  const field = err.field ?? null;
  if (err.code === 'amount_below_fee') {
    return {
      code: err.code,
      field: 'amount',
      message: `The amount must be more than the service fee of ${currency} ${groupedUnitsText(fee)}, since the fee comes out of it.`,
    };
  }
  if (err.code === 'payout_request_failed' && field === 'bank_slug' && bankSlug) {
    return { code: err.code, field: 'bank_slug', message: `${findBank(bankSlug)?.name ?? 'This bank'} does not take ${currency}; choose one that does.` };
  }
  if (err.code === 'insufficient_balance') return { code: err.code, field: 'amount', message: 'The card does not hold enough for this payout and its fee.' };
  if (err.code === 'card_disabled') return { code: err.code, field: 'card_number', message: 'The source card is disabled and cannot pay out.' };
  const destination = ['destination_card_not_found', 'destination_card_disabled', 'currency_mismatch'].includes(err.code);
  return { code: err.code, field: destination ? 'destination_card_number' : field, message: typeof err.detail === 'string' ? err.detail : err.title };
}

/**
 * The live preview of the send-payout form. The source card gives its currency
 * and balance; with an amount, the payout's own quote (quotePayout, as
 * createPayout makes it) with every check it would fail, destination included
 * when one is given.
 */
export const previewPayout = defineAction({
  name: 'previewPayout',
  permission: 'money:move',
  schema: previewPayoutSchema,
  handler: async ({ db, session, input }): Promise<PayoutPreview> => {
    const own = await requireOwnCard(db, session.businessId, session.mode, input.card_number);
    const type = input.destination_type;
    const destinationNumber = type === 'card_to_card' && /^\d{16}$/.test(input.destination_card_number ?? '') ? input.destination_card_number : undefined;
    const { rule, cards } = await payoutParties(
      db,
      session.businessId,
      session.mode,
      type,
      destinationNumber ? [own.card_number, destinationNumber] : [own.card_number],
      true,
    );
    const source = cards.find((c) => c.card_number === own.card_number);
    const balance = Number(own.balance);
    const base = { currency: own.currency as Currency, balance, active: source?.status === 1 };
    const bankSlug = type === 'bank' && input.bank_slug && findBank(input.bank_slug) ? input.bank_slug : undefined;
    const accountNumber = bankSlug && input.account_number ? input.account_number : undefined;
    if (input.amount === undefined) {
      const refusals = quotePayout({
        businessId: session.businessId,
        type,
        amount: 0,
        payer: { chargePayer: input.charge_payer, feeFromAmount: false },
        rule,
        source,
        destinationCard: destinationNumber ? { card: cards.find((c) => c.card_number === destinationNumber) } : undefined,
        bankSlug,
        accountNumber,
      }).refusals;
      return { ...base, amount: null, refusals: refusals.map((r) => refusalFor(r, base.currency, 0, bankSlug)) };
    }
    const quote = quotePayout({
      businessId: session.businessId,
      type,
      amount: input.amount,
      payer: payerRule(type, input.charge_payer),
      rule,
      source,
      destinationCard: destinationNumber ? { card: cards.find((c) => c.card_number === destinationNumber) } : undefined,
      bankSlug,
      accountNumber,
      balance,
    });
    const refusals = quote.refusals.map((r) => refusalFor(r, base.currency, quote.fee, bankSlug));
    let merchantName: string | undefined;
    if (type === 'b2b' && input.merchant_id) {
      const [merchant] = await db.select({ id: businesses.id, name: businesses.name }).from(businesses).where(eq(businesses.merchantId, input.merchant_id));
      const refused = merchantRefusal(merchant, session.businessId);
      // The payout refuses an unknown merchant before it looks at the balance: the preview lists them in that order.
      const balanceAt = refusals.findIndex((r) => r.code === 'insufficient_balance');
      if (refused) {
        refusals.splice(balanceAt < 0 ? refusals.length : balanceAt, 0, {
          code: refused.code,
          field: 'merchant_id',
          message: 'No other business has this merchant id.',
        });
      } else merchantName = merchant?.name;
    }
    return {
      ...base,
      ...(merchantName !== undefined && { merchantName }),
      amount: quote.amount,
      fee: quote.fee,
      chargePayer: quote.chargePayer,
      feeFromAmount: quote.feeFromAmount,
      debit: quote.debit,
      credit: quote.credit,
      sufficient: balance >= quote.debit,
      refusals,
    };
  },
});

/** Who a card-to-card payout would reach, as far as privacy allows (lib/payouts/recipient-preview.ts). */
export const lookupRecipient = defineAction({
  name: 'lookupRecipient',
  permission: 'money:move',
  schema: lookupRecipientSchema,
  handler: async ({ db, session, input }): Promise<RecipientPreview> =>
    previewRecipient(db, {
      businessId: session.businessId,
      mode: session.mode,
      cardNumber: input.destination_card_number,
      sourceCardNumber: input.card_number && /^\d{16}$/.test(input.card_number) ? input.card_number : undefined,
    }),
});

/**
 * The form's last check before its dialog asks for a yes: the payout's own
 * statement, run and rolled back (quiet, telling no rail), so whatever it
 * would refuse (a limit, the balance, a card changed since the preview) is
 * refused here, never after the yes.
 */
export const checkPayout = defineAction({
  name: 'checkPayout',
  permission: 'money:move',
  schema: sendPayoutSchema,
  handler: async ({ db, session, input }) => {
    const request = parsePayoutRequest(toPayoutRequest(input));
    const opts = { businessId: session.businessId, mode: session.mode, actor: session.actor, quiet: true };
    await dryRun(db, (tx) => writeRequestedPayout(db, opts, request, tx));
    return { passes: true };
  },
});

/** Sends a payout as the signed-in user, once per form submission. */
export const sendPayout = defineAction({
  name: 'sendPayout',
  changesWaitingApprovals: true,
  permission: 'money:move',
  schema: sendPayoutSchema,
  handler: async ({ db, session, input }) => {
    requireConfirmation(payoutNeedsConfirmation(input.destination_type, input.amount), input.confirmed);
    const request = toPayoutRequest(input);
    return runOnce(db, session, { action: 'sendPayout', submissionId: input.submission_id, input: request }, async () => {
      // At or above the currency's approval threshold the payout waits for a second person (lib/approvals/).
      const result = await sendDashboardPayout(db, { businessId: session.businessId, mode: session.mode, userId: session.userId, input: request });
      return result.sent ? { reference: result.reference } : { reference: result.approval.reference, approval: result.approval };
    });
  },
});
