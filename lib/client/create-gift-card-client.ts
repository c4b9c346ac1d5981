import type { ApiContracts } from '../api/contracts/api-contracts';
import type { DataOf, FilledPath } from '../api/contracts/contract';
import type {
  ApiResponse,
  CaptureHoldInput,
  CreateCardInput,
  CreateLocationInput,
  CreatePaymentInput,
  CreatePayoutInput,
  CreateTransferInput,
  ListCardsQuery,
  ListEventsQuery,
  ListShopOrdersQuery,
  PageQuery,
  PlaceHoldInput,
  PostOptions,
  RedeemCardInput,
  RefundPaymentInput,
  ShareCardInput,
} from './types';

export interface GiftCardClientOptions {
  /** The API's base address, `{APP_URL}/api/v1`. */
  baseUrl: string;
  /** `sk_test_…` or `sk_live_…`: the key decides the mode. Keep it on your server. */
  apiKey: string;
  /** Another fetch (a proxy, a test double); the global one by default. */
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | boolean | undefined>;

function queryString(query: Query | undefined): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return text ? `?${text}` : '';
}

const segment = encodeURIComponent;

/** The API's operations by operationId, as their contracts declare them (types only: the client carries no server code). */
type Contracts = ApiContracts;
type OperationId = keyof Contracts;

/** One request of an operation: method and path as its contract declares them, which the compiler holds each method to. */
interface Request<Id extends OperationId> {
  method: Uppercase<Contracts[Id]['method']>;
  path: FilledPath<Contracts[Id]['path']>;
  query?: Query;
  body?: unknown;
  post?: PostOptions;
}

/**
 * A typed client of the gift card API, thin over fetch. Every method resolves
 * to the API's envelope: narrow on `status` ('success' carries `data`,
 * 'error' carries `error`). API errors are returned, not thrown; only a
 * network failure rejects.
 */
export function createGiftCardClient(options: GiftCardClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function call<Id extends OperationId>(req: Request<Id>): Promise<ApiResponse<DataOf<Contracts[Id]>>> {
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    if (req.post?.idempotencyKey !== undefined) headers['idempotency-key'] = req.post.idempotencyKey;
    const res = await doFetch(`${base}${req.path}${queryString(req.query)}`, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
    });
    const text = await res.text();
    const meta = { httpStatus: res.status, requestId: res.headers.get('x-request-id') };
    try {
      const parsed = JSON.parse(text);
      if (parsed && (parsed.status === 'success' || parsed.status === 'error')) return { ...parsed, ...meta };
    } catch {
      /* not an envelope: reported below */
    }
    return { status: 'error', message: `HTTP ${res.status}`, error: text.slice(0, 500) || res.statusText, ...meta };
  }

  return {
    createCard: (input: CreateCardInput, opts?: PostOptions) => call<'createCard'>({ method: 'POST', path: '/card', body: input, post: opts }),
    /** Up to 1,000 cards in one call; each result is the card or the error POST /card would have answered, in order. */
    createCardsBatch: (cards: CreateCardInput[], opts?: PostOptions) =>
      call<'createCardsBatch'>({ method: 'POST', path: '/card/batch', body: { cards }, post: opts }),
    listCards: (query?: ListCardsQuery) => call<'listCards'>({ method: 'GET', path: '/card', query: { ...query } }),
    getCard: (cardNumber: string) => call<'getCard'>({ method: 'GET', path: `/card/${segment(cardNumber)}` }),
    /** Enables or disables the card, or (`{ phone_number }`, international format) moves it to a corrected number: its page link then stops working. */
    setCardStatus: (cardNumber: string, change: 'enable' | 'disable' | { phone_number: string }) =>
      call<'setCardStatus'>({
        method: 'PATCH',
        path: `/card/${segment(cardNumber)}`,
        body: typeof change === 'string' ? { status: change } : { phone_number: change.phone_number },
      }),
    cancelCard: (cardNumber: string) => call<'cancelCard'>({ method: 'DELETE', path: `/card/${segment(cardNumber)}` }),
    /** Spends amount of the card at your business (a till); the answer holds the card's balance after, or (202) the confirmation waiting for the cardholder's code. */
    redeemCard: (cardNumber: string, input: RedeemCardInput, opts?: PostOptions) =>
      call<'redeemCard'>({ method: 'POST', path: `/card/${segment(cardNumber)}/redemptions`, body: input, post: opts }),
    /** Completes a redemption or capture that answered 202 (over your spend_code_over) with the code the card's phone got. */
    confirmSpend: (confirmationReference: string, code: string, opts?: PostOptions) =>
      call<'confirmSpend'>({ method: 'POST', path: `/card/confirmations/${segment(confirmationReference)}`, body: { code }, post: opts }),
    /** A new link to the card's page (the old one stops working), sent by sms or email, or only answered (none). */
    shareCard: (cardNumber: string, input: ShareCardInput, opts?: PostOptions) =>
      call<'shareCard'>({ method: 'POST', path: `/card/${segment(cardNumber)}/share`, body: input, post: opts }),
    /** The messages sent to the card's holder, newest first. */
    listCardMessages: (cardNumber: string, query?: PageQuery) =>
      call<'listCardMessages'>({ method: 'GET', path: `/card/${segment(cardNumber)}/messages`, query: { ...query } }),
    /** Sets amount of the card aside for a till until captured, voided or expired. */
    placeHold: (cardNumber: string, input: PlaceHoldInput, opts?: PostOptions) =>
      call<'placeHold'>({ method: 'POST', path: `/card/${segment(cardNumber)}/holds`, body: input, post: opts }),
    listCardHolds: (cardNumber: string, query?: PageQuery) =>
      call<'listCardHolds'>({ method: 'GET', path: `/card/${segment(cardNumber)}/holds`, query: { ...query } }),
    getHold: (holdReference: string) => call<'getHold'>({ method: 'GET', path: `/card/holds/${segment(holdReference)}` }),
    /** Redeems the hold; without an amount, the whole of it. The rest goes back to the card. */
    captureHold: (holdReference: string, input: CaptureHoldInput = {}, opts?: PostOptions) =>
      call<'captureHold'>({ method: 'POST', path: `/card/holds/${segment(holdReference)}/capture`, body: input, post: opts }),
    voidHold: (holdReference: string, opts?: PostOptions) =>
      call<'voidHold'>({ method: 'POST', path: `/card/holds/${segment(holdReference)}/void`, body: {}, post: opts }),

    createPayout: (input: CreatePayoutInput, opts?: PostOptions) => call<'createPayout'>({ method: 'POST', path: '/card/payouts', body: input, post: opts }),
    /** Up to 100 payouts made in order, as if sent one after another; each result is the payout or its error, in order. */
    createPayoutsBatch: (payouts: CreatePayoutInput[], opts?: PostOptions) =>
      call<'createPayoutsBatch'>({ method: 'POST', path: '/card/payouts/batch', body: { payouts }, post: opts }),
    listPayouts: (query?: PageQuery) => call<'listPayouts'>({ method: 'GET', path: '/card/payouts', query: { ...query } }),
    getPayoutStatus: (reference: string) => call<'getPayoutStatus'>({ method: 'GET', path: `/card/payout/${segment(reference)}/status` }),
    createTransfer: (input: CreateTransferInput, opts?: PostOptions) => call<'createTransfer'>({ method: 'POST', path: '/transfers', body: input, post: opts }),
    listBanks: () => call<'listBanks'>({ method: 'GET', path: '/banks' }),

    createPayment: (input: CreatePaymentInput, opts?: PostOptions) =>
      call<'createPayment'>({ method: 'POST', path: '/card/payments', body: input, post: opts }),
    listPayments: (query?: PageQuery) => call<'listPayments'>({ method: 'GET', path: '/card/payments', query: { ...query } }),
    getPaymentStatus: (linkReference: string) => call<'getPaymentStatus'>({ method: 'GET', path: `/card/payment/${segment(linkReference)}/status` }),
    /** Live direct charges whose next_action is otp: sends the customer's one-time code. */
    authorizePayment: (linkReference: string, otp: string, opts?: PostOptions) =>
      call<'authorizePayment'>({ method: 'POST', path: `/card/payment/${segment(linkReference)}/authorize`, body: { otp }, post: opts }),
    /** Refunds a paid top-up; without an amount, what is left of it. */
    refundPayment: (linkReference: string, input: RefundPaymentInput = {}, opts?: PostOptions) =>
      call<'refundPayment'>({ method: 'POST', path: `/card/payments/${segment(linkReference)}/refund`, body: input, post: opts }),

    /** Names a branch of the business, for location_id in redemptions and holds. */
    createLocation: (input: CreateLocationInput, opts?: PostOptions) => call<'createLocation'>({ method: 'POST', path: '/locations', body: input, post: opts }),
    listLocations: () => call<'listLocations'>({ method: 'GET', path: '/locations' }),

    listEvents: (query?: ListEventsQuery) => call<'listEvents'>({ method: 'GET', path: '/events', query: { ...query } }),
    /** The cards bought on your shop; `phone` finds those whose recipient or buyer phone ends with it. */
    listShopOrders: (query?: ListShopOrdersQuery) => call<'listShopOrders'>({ method: 'GET', path: '/shop/orders', query: { ...query } }),

    /** Test keys only: plays the bank's status update for a pending bank payout or transfer. */
    settlePayout: (reference: string, status: 'success' | 'failed', opts?: PostOptions) =>
      call<'settlePayout'>({ method: 'POST', path: `/test-helpers/payouts/${segment(reference)}/settle`, body: { status }, post: opts }),
    /** Test keys only: plays the processor for a pending payment. */
    completePayment: (linkReference: string, status: 'success' | 'failed' | 'cancelled', opts?: PostOptions) =>
      call<'completePayment'>({ method: 'POST', path: `/test-helpers/payments/${segment(linkReference)}/complete`, body: { status }, post: opts }),
  } satisfies Record<OperationId, (...args: never[]) => Promise<ApiResponse<unknown>>>;
}

export type GiftCardClient = ReturnType<typeof createGiftCardClient>;
