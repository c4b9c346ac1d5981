import { eq } from 'drizzle-orm';
import type { Actor } from '../actor';
import type { Db } from '../db/client';
import { businesses } from '../db/schema';
import { ServiceError } from '../errors';
import { newReference } from '../ids';
import { businessAccountId, clearingAccountId, feeRevenueAccountId } from '../ledger/accounts';
import { LIVE_NOT_CONFIGURED, type BankPayoutInstruction, type BankRail } from '../providers/provider-port';
import { bankRailFor } from '../providers/provider-registry';
import { RailRefused } from '../providers/rail-refused';
import type { Mode } from '../validation';
import { bankPayoutAnswer, businessPayoutAnswer, cardToCardAnswer } from './payout-answer';
import type { PayoutCard } from './payout-parties';
import { merchantRefusal, type PayoutQuote } from './payout-quote';
import type { PayoutRequest } from './payout-request';
import type { PayoutRow } from './payout-view';
import { settlePayout } from './settle-payout';
import type { PayoutExtras, PreparedPayout } from './write-payout';
import { logger } from '../observability/logger';

interface DestinationOptions {
  businessId: number;
  mode: Mode;
  actor: Actor;
  /** Inside a caller's transaction (an approval): the rail must not hear of the payout before it commits; the caller or the rail's worker tells it. */
  railAfterCommit?: boolean;
  /** The fee revenue shard every payout of a batch credits (feeRevenueAccountId); a random one each when not given. */
  feeShard?: number;
}

/** What a payout's type adds to the write: the ledger kind, the account credited, the payout row's destination fields and status. */
export interface DestinationPlan {
  kind: string;
  destinationAccount: number;
  feeAccount: number;
  extra: PayoutExtras;
  status: 'success' | 'pending';
  /** A bank payout's rail, told once the debit has committed. */
  bank?: { rail: BankRail; instruction: BankPayoutInstruction };
}

/**
 * Looks up where the money goes and names the payout (its reference). May
 * refuse (a merchant that is not another business, a mode without a bank
 * rail, a destination the rail cannot pay); writes nothing.
 */
export async function planDestination(
  db: Db,
  opts: DestinationOptions,
  request: PayoutRequest,
  p: PreparedPayout,
  q: PayoutQuote,
  destinationCard: PayoutCard | undefined,
): Promise<DestinationPlan> {
  const { input } = request;
  const currency = p.source.currency;
  if (request.type === 'card_to_card') {
    const feeAccount = await feeRevenueAccountId(db, opts.mode, currency, opts.feeShard);
    p.reference = newReference('c2c');
    const extra = { destinationCardId: destinationCard!.id, destinationCardNumber: destinationCard!.card_number };
    return { kind: 'payout_card_to_card', destinationAccount: destinationCard!.account_id, feeAccount, extra, status: 'success' };
  }
  if (request.type === 'b2b') {
    const [merchant] = await db.select({ id: businesses.id }).from(businesses).where(eq(businesses.merchantId, input.merchant_id));
    const refused = merchantRefusal(merchant, opts.businessId);
    if (refused) throw refused;
    const [merchantAccount, feeAccount] = await Promise.all([
      businessAccountId(db, merchant.id, opts.mode, currency),
      feeRevenueAccountId(db, opts.mode, currency, opts.feeShard),
    ]);
    p.reference = newReference('b2b');
    return { kind: 'payout_b2b', destinationAccount: merchantAccount, feeAccount, extra: { merchantId: input.merchant_id }, status: 'success' };
  }
  const rail = bankRailFor(opts.mode);
  if (!rail) throw new ServiceError('failed_to_initiate_payout', `${LIVE_NOT_CONFIGURED} Nothing was debited.`);
  p.reference = newReference('bnk');
  const to = { bankSlug: input.bank_slug, accountNumber: input.account_number, accountName: input.account_name };
  const instruction = { reference: p.reference, ...to, currency, amount: q.credit };
  const queued = await rail.prepare?.(instruction);
  const [clearing, feeAccount] = await Promise.all([
    clearingAccountId(db, 'bank', opts.mode, currency),
    feeRevenueAccountId(db, opts.mode, currency, opts.feeShard),
  ]);
  const settleMs = rail.settleAfterMs();
  const extra = { ...to, settleAfter: settleMs === null ? null : new Date(Date.now() + settleMs), railRequest: queued && { ...queued, amount: q.credit } };
  return { kind: 'payout_bank', destinationAccount: clearing, feeAccount, extra, status: 'pending', bank: { rail, instruction } };
}

/** The answer to a written payout; a bank payout first tells its rail, which hears of money only once it is set aside. */
export async function answerWritten(db: Db, opts: DestinationOptions, plan: DestinationPlan, payout: PayoutRow) {
  if (!plan.bank) return payout.payoutType === 'card_to_card' ? cardToCardAnswer(payout) : businessPayoutAnswer(payout);
  const { rail, instruction } = plan.bank;
  if (opts.railAfterCommit) return bankPayoutAnswer(payout);
  try {
    await rail.initiate(instruction, db);
  } catch (err) {
    // Only the rail's own refusal fails the payout; any other error (ours, or not knowing) leaves it pending for the rail's retries.
    if (!(err instanceof RailRefused)) {
      logger.error({ err }, `bank rail ${rail.name}: payout ${payout.reference} left pending`);
      return bankPayoutAnswer(payout);
    }
    logger.error({ err }, `bank rail ${rail.name} refused payout ${payout.reference}`);
    await settlePayout(db, { payoutId: payout.id, outcome: 'failed', actor: opts.actor });
    throw railRefusal();
  }
  return bankPayoutAnswer(payout);
}

/** The answer to a bank payout its rail refused as soon as it heard of it. */
export const railRefusal = () =>
  new ServiceError('failed_to_initiate_payout', 'The bank rail refused the payout; the debit was reversed and the payout failed.');
