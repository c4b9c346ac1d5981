import type { ApiContracts } from '../api/contracts/api-contracts';
import type { RequestOf } from '../api/contracts/contract';

export type { CardBatchResults, CardMessage, CardMessagePage, CardPage, GiftCard, Redemption, SharedCard } from '../api/contracts/cards';
export type { EventItem, EventPage, HoldEvent, OrderEvent, PaymentEvent, PayoutEvent, RedemptionEvent, RefundEvent } from '../api/contracts/events';
export type { Hold, HoldPage } from '../api/contracts/holds';
export type { SpendCodeRequired } from '../spend-codes/request-spend-code';
export type { Location } from '../api/contracts/locations';
export type { PaymentCreated, PaymentPage, PaymentRecord, Refund } from '../api/contracts/payments';
export type { ShopOrder, ShopOrderPage } from '../api/contracts/shop';
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

/** The body of operation `Id` named `Name` in its contract, as a client sends it. */
type Body<Id extends keyof ApiContracts, Name extends string> = RequestOf<ApiContracts[Id], Name>;

export type RefundPaymentInput = Body<'refundPayment', 'RefundPaymentRequest'>;
export type RedeemCardInput = Body<'redeemCard', 'RedeemCardRequest'>;
export type ShareCardInput = Body<'shareCard', 'ShareCardRequest'>;
export type PlaceHoldInput = Body<'placeHold', 'PlaceHoldRequest'>;
export type CaptureHoldInput = Body<'captureHold', 'CaptureHoldRequest'>;
export type CreateLocationInput = Body<'createLocation', 'CreateLocationRequest'>;

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

export type CreateCardInput = Body<'createCard', 'CreateCardRequest'>;
export type B2BPayoutInput = WithAmount<Body<'createPayout', 'B2BPayoutRequest'>> & { charge_payer?: 'business' | 'customer' };
export type CardToCardPayoutInput = WithAmount<Body<'createPayout', 'CardToCardPayoutRequest'>> & { charge_payer?: 'sender' | 'receiver' };
export type BankPayoutInput = WithAmount<Body<'createPayout', 'BankPayoutRequest'>> & { charge_payer?: 'business' | 'customer' };
export type CreatePayoutInput = B2BPayoutInput | CardToCardPayoutInput | BankPayoutInput;
export type CreateTransferInput = WithAmount<Body<'createTransfer', 'TransferRequest'>>;
export type CreatePaymentInput = Body<'createPayment', 'CreatePaymentRequest'>;

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
    | 'card.expired'
    | 'order.paid';
  undelivered?: boolean;
}

export interface ListShopOrdersQuery extends PageQuery {
  phone?: string;
}

export interface PostOptions {
  /** Sent as Idempotency-Key: a retry with the same key and body gets the first answer. */
  idempotencyKey?: string;
}
