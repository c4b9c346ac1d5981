import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { payments } from '../db/schema';
import { ServiceError } from '../errors';
import type { Payment } from '../payments/payment-view';
import { type PayoutRow, requirePayout } from '../payouts/payout-view';
import type { ProviderTransfer } from '../providers/provider-records';
import { registeredProvider } from '../providers/provider-registry';
import type { Mode } from '../validation';
import { merchantNames } from './history-lists';
import { type LedgerTrailEntry, ledgerTrail } from './ledger-trail';
import { type PayoutInitiator, payoutInitiator } from './payout-initiator';

export interface HistoryDetailOptions {
  businessId: number;
  mode: Mode;
  reference: string;
}

export interface PaymentDetailData {
  payment: Payment;
  trail: LedgerTrailEntry[];
}

export interface PayoutDetailData {
  payout: PayoutRow;
  trail: LedgerTrailEntry[];
  /** The receiving business's name for a B2B payout, when it is known. */
  merchantName: string | null;
  startedBy: PayoutInitiator;
  /** The provider's side of it, with the provider's name, when it went through one that keeps records (Chapa, live). */
  provider: { label: string; transfer: ProviderTransfer } | null;
}

/** A payment of this business and mode with its ledger trail; undefined when none has this link reference. */
export async function loadPaymentDetail(db: Db, opts: HistoryDetailOptions): Promise<PaymentDetailData | undefined> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.linkReference, opts.reference), eq(payments.businessId, opts.businessId), eq(payments.mode, opts.mode)));
  if (!payment) return undefined;
  return { payment, trail: await ledgerTrail(db, opts.businessId, opts.mode, payment.linkReference) };
}

/** A payout of this business and mode with its trail, who started it and the provider's side; undefined when none has this reference. */
export async function loadPayoutDetail(db: Db, opts: HistoryDetailOptions): Promise<PayoutDetailData | undefined> {
  const payout = await requirePayout(db, opts.businessId, opts.mode, opts.reference).catch((err) => {
    if (err instanceof ServiceError) return undefined;
    throw err;
  });
  if (!payout) return undefined;
  const provider = registeredProvider(opts.mode);
  const [trail, names, startedBy, transfer] = await Promise.all([
    ledgerTrail(db, opts.businessId, opts.mode, payout.reference),
    merchantNames(db, [payout.merchantId]),
    payoutInitiator(db, { businessId: opts.businessId, actorType: payout.actorType, actorId: payout.actorId }),
    provider?.records.transferView(db, { businessId: opts.businessId, mode: opts.mode, reference: payout.reference }) ?? null,
  ]);
  return {
    payout,
    trail,
    merchantName: payout.merchantId ? (names[payout.merchantId] ?? null) : null,
    startedBy,
    provider: provider && transfer ? { label: provider.label, transfer } : null,
  };
}
