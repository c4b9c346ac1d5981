import type { Actor } from '../actor';
import type { Db, DbOrTx } from '../db/client';
import type { Mode } from '../validation';
import type { ProviderRecords } from './provider-records';

/**
 * What the service asks of a payment provider, in its own words. The core
 * (lib/payments, lib/payouts, lib/refunds, workflows) calls these; the
 * sandbox (./sandbox.ts) and Chapa (lib/rails/chapa/chapa-provider.ts)
 * implement them, and the composition root registers one per mode
 * (./provider-registry.ts).
 */
export interface PaymentProvider {
  name: string;
  /** Its name as staff read it ("Chapa"). */
  label: string;
  /** Null when the provider cannot be used now (Chapa without CHAPA_SECRET_KEY); read at each use, so a key set later counts. */
  settings(): ProviderSettings | null;
  payouts?: BankRail;
  walletCharges?: WalletRail;
  checkout?: CheckoutPort;
  refunds?: RefundPort;
  /** What the dashboard shows of the provider's own records (./provider-records.ts). */
  records: ProviderRecords;
  /** What the provider sends us unasked, to its own routes under /api/providers/<name>/. */
  inbound?: ProviderInbound;
}

/**
 * The provider's calls to us. Each reads the provider's own headers and checks
 * its own signatures, so its routes know nothing of either.
 */
export interface ProviderInbound {
  /** Its webhook: throws a ServiceError for one it refuses (unsigned, unreadable); answers what was done with it. */
  webhook(db: Db, headers: Headers, rawBody: Buffer): Promise<unknown>;
  /** Its question before it moves a transfer: true approves; false makes it revert the transfer (the payout then fails and refunds). */
  approveTransfer(db: Db, headers: Headers, rawBody: Buffer): Promise<boolean>;
}

export interface ProviderSettings {
  /** How long one call to the provider may take before it counts as unavailable. */
  timeoutMs: number;
  /** The side of the provider its key talks to: a test key on a live mode moves no real money. */
  keyMode: Mode;
}

/** The sentence live-mode 502s carry in `error` when no provider is configured. */
export const LIVE_NOT_CONFIGURED = 'Live payments are not configured.';

export interface BankPayoutInstruction {
  reference: string;
  bankSlug: string;
  accountNumber: string;
  accountName: string;
  currency: string;
  /** What the destination receives: the amount, less the fee when the business pays it. */
  amount: number;
}

/** A provider request recorded in the same statement as the debit (table rail_requests). */
interface QueuedRailRequest {
  provider: string;
  /** The provider's own code for the bank or wallet. */
  bankCode: string;
}

/** How bank and wallet payouts leave the ledger: accepted now, settled later by a status update. */
export interface BankRail {
  name: string;
  /**
   * Before any debit: refuses a destination the rail cannot pay (a ServiceError) and, for a rail with an
   * outbox, names the request the payout statement queues with the debit (initiate then sends it).
   */
  prepare?(instruction: BankPayoutInstruction): Promise<QueuedRailRequest | undefined>;
  /** Fetches now what prepare would fetch (a bank list), so a prepare inside a transaction holding locks answers from memory. */
  warm?(): Promise<void>;
  /** Throws RailRefused when the rail refuses the instruction; returns when it is accepted or may still be (pending). */
  initiate(instruction: BankPayoutInstruction, db: Db): Promise<void>;
  /** Sends a request queued with a debit inside a caller's transaction, once that has committed; the rail's worker sends what this does not. */
  sendQueued?(db: Db, reference: string): Promise<void>;
  /** Milliseconds until the rail settles an accepted payout by itself, or null when it never does. */
  settleAfterMs(): number | null;
  /** The outcome the rail reports when it settles by itself. */
  outcome(instruction: Pick<BankPayoutInstruction, 'accountNumber'>): 'success' | 'failed';
}

export interface WalletChargeRequest {
  mode: Mode;
  paymentMethod: string;
  phoneNumber: string;
  amount: number;
  currency: string;
  reference: string;
}

export interface WalletChargeAccepted {
  /** When the sandbox settles the charge by itself; null means only a test helper will. */
  settleAfter: Date | null;
}

/** How direct charges reach a customer's wallet: the charge is requested now and settles later. */
export interface WalletRail {
  name: string;
  /** Throws when the processor refuses; returns once the request is on its way to the phone. */
  charge(req: WalletChargeRequest): Promise<WalletChargeAccepted>;
}

/** The card holder's details a provider may show on its pages. */
export interface CheckoutCustomer {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_number: string | null;
}

export interface HostedCheckoutRequest {
  linkReference: string;
  /** What the customer pays, minor units: amount plus service fee. */
  total: number;
  currency: string;
  businessName: string;
  card: CheckoutCustomer;
  appUrl: string;
}

export interface DirectChargeRequest {
  linkReference: string;
  paymentMethod: string;
  phoneNumber: string;
  total: number;
  currency: string;
  card: CheckoutCustomer;
}

export type DirectChargeOutcome =
  | { kind: 'requested'; nextAction: 'ussd' | 'otp'; message: string; providerReference: string | null; requestId: string | null }
  | { kind: 'refused'; message: string }
  | { kind: 'unknown'; reason: string };

export interface AuthorizeRequest {
  providerReference: string;
  requestId: string | null;
  paymentMethod: string;
  otp: string;
}

export type AuthorizeOutcome = { kind: 'sent' } | { kind: 'refused'; message: string } | { kind: 'unknown'; reason: string };

/** What the provider's verify says about one payment, strictly: anything unreadable is `unreadable`, never success. */
type VerifiedPayment =
  | {
      state: 'success' | 'failed' | 'pending';
      txRef: string;
      amount: number;
      currency: string;
      providerReference: string | null;
      mode: string | null;
      raw: string;
    }
  | { state: 'unreadable'; reason: string };

export type PaymentCheck =
  | { kind: 'unavailable'; reason: string }
  | { kind: 'refused'; httpStatus: number; message: string }
  | { kind: 'answered'; verified: VerifiedPayment };

/** Payments the provider takes itself (live): its hosted page, wallet pushes, and its verify, the only word that settles them. */
export interface CheckoutPort {
  /** The wallet slugs a direct charge may use. */
  chargeableWallets: readonly string[];
  /** The provider's hosted page URL; throws a ServiceError (502) when it refuses or does not answer. */
  startHostedCheckout(req: HostedCheckoutRequest): Promise<string>;
  requestDirectCharge(req: DirectChargeRequest): Promise<DirectChargeOutcome>;
  /** Sends the customer's one-time code; verify then decides. */
  authorizeDirectCharge(req: AuthorizeRequest): Promise<AuthorizeOutcome>;
  verifyPayment(linkReference: string): Promise<PaymentCheck>;
}

export interface RefundRequest {
  /** The payment's link_reference. */
  txRef: string;
  /** Our refund reference: the provider refuses a second refund with it, so a resend can never repay twice. */
  reference: string;
  /** Minor units. */
  amount: number;
  reason: string | null;
}

export type RefundOutcome =
  | { kind: 'ok'; providerReference: string | null }
  /** referenceUsed: the refusal says the reference was already taken, so an earlier send arrived. */
  | { kind: 'refused'; message: string; referenceUsed: boolean }
  | { kind: 'unavailable'; reason: string };

export interface RefundPort {
  requestRefund(req: RefundRequest): Promise<RefundOutcome>;
}

/**
 * How an adapter reports back to the core: the composition root registers
 * the domain's own functions (provider-registry.ts), so no adapter imports a use case.
 */
export interface ProviderEvents {
  /** A transfer the provider reports final; inSameTransaction runs in the settlement's transaction. */
  transferSettled(
    db: Db,
    settled: {
      payoutId: number;
      outcome: 'success' | 'failed';
      actor: Actor;
      failureReason?: string;
      inSameTransaction: (tx: DbOrTx) => Promise<unknown>;
    },
  ): Promise<void>;
  /** The provider said something about a payment: only its verify decides, so this asks it. */
  paymentReported(db: Db, linkReference: string): Promise<void>;
}
