import type { z } from 'zod';
import type { createCardSchema } from '../cards/create-card';
import type { createPaymentSchema } from '../payments/create-payment';
import type { schemas as payoutRequestSchemas } from '../payouts/payout-request';
import type { transferSchema } from '../payouts/create-transfer';
import type { captureRequestSchema, holdRequestSchema } from '../holds/till-hold-request';
import type { redemptionRequestSchema } from '../redemptions/redemption-request';
import type { refundRequestSchema } from '../refunds/refund-request';

export type { CardBatchResults, CardPage, GiftCard, Redemption } from '../api/contracts/cards';
export type { EventItem, EventPage, HoldEvent, PaymentEvent, PayoutEvent, RedemptionEvent, RefundEvent } from '../api/contracts/events';
export type { Hold, HoldPage } from '../api/contracts/holds';
export type { PaymentCreated, PaymentPage, PaymentRecord, Refund } from '../api/contracts/payments';
export type {
  Bank,
  BankPayoutCreated,
  B2BPayoutCreated,
  CardToCardPayoutCreated,
  PayoutBatchResults,
  PayoutCreated,
  PayoutPage,
  PayoutStatus,
  TransferCreated,
} from '../api/contracts/payouts';

export type RefundPaymentInput = z.input<typeof refundRequestSchema>;
export type RedeemCardInput = z.input<typeof redemptionRequestSchema>;
export type PlaceHoldInput = z.input<typeof holdRequestSchema>;
export type CaptureHoldInput = z.input<typeof captureRequestSchema>;

export interface SuccessEnvelope<T> {
  status: 'success';
  message: string;
  data: T;
}

export interface ErrorEnvelope {
  status: 'error';
  /** The error's title, e.g. `Insufficient balance`. */
  message: string;
  /** A sentence, or one message per field for `Validation error`. */
  error: string | Record<string, string>;
  request_id?: string;
}

/** What every method resolves to: the API's envelope, plus the HTTP status and request id. API errors are values, never thrown. */
export type ApiResponse<T> = (SuccessEnvelope<T> | ErrorEnvelope) & { httpStatus: number; requestId: string | null };

/** Amounts go over the wire as integers of minor units; some routes type-check them after parsing, so their zod input says unknown. */
type WithAmount<T> = Omit<T, 'amount'> & { amount: number };

export type CreateCardInput = z.input<typeof createCardSchema>;
export type B2BPayoutInput = WithAmount<z.input<typeof payoutRequestSchemas.b2b>> & { charge_payer?: 'business' | 'customer' };
export type CardToCardPayoutInput = WithAmount<z.input<typeof payoutRequestSchemas.card_to_card>> & { charge_payer?: 'sender' | 'receiver' };
export type BankPayoutInput = WithAmount<z.input<typeof payoutRequestSchemas.bank>> & { charge_payer?: 'business' | 'customer' };
export type CreatePayoutInput = B2BPayoutInput | CardToCardPayoutInput | BankPayoutInput;
export type CreateTransferInput = WithAmount<z.input<typeof transferSchema>>;
export type CreatePaymentInput = z.input<typeof createPaymentSchema>;

export interface PageQuery {
  page?: number;
  limit?: number;
  /** 0-based; used instead of page when given. */
  offset?: number;
}

export interface ListCardsQuery extends PageQuery {
  /** National number, with or without its trunk 0. */
  phone_number?: string;
}

export interface ListEventsQuery extends PageQuery {
  type?:
    | 'payment.success'
    | 'payment.failed'
    | 'payment.cancelled'
    | 'payment.refunded'
    | 'payment.refund_failed'
    | 'payout.success'
    | 'payout.failed'
    | 'card.redeemed'
    | 'hold.created'
    | 'hold.captured'
    | 'hold.voided'
    | 'hold.expired'
    | 'card.expired';
  undelivered?: boolean;
}

export interface PostOptions {
  /** Sent as Idempotency-Key: a retry with the same key and body gets the first answer. */
  idempotencyKey?: string;
}
