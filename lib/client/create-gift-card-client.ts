import type {
  ApiResponse,
  CardBatchResults,
  Bank,
  CaptureHoldInput,
  CardPage,
  CreateCardInput,
  CreatePaymentInput,
  CreatePayoutInput,
  CreateTransferInput,
  EventPage,
  GiftCard,
  Hold,
  HoldPage,
  ListCardsQuery,
  ListEventsQuery,
  PageQuery,
  PaymentCreated,
  PaymentPage,
  PaymentRecord,
  PayoutBatchResults,
  PayoutCreated,
  PayoutPage,
  PayoutStatus,
  PlaceHoldInput,
  PostOptions,
  RedeemCardInput,
  Redemption,
  Refund,
  RefundPaymentInput,
  TransferCreated,
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

/**
 * A typed client of the gift card API, thin over fetch. Every method resolves
 * to the API's envelope: narrow on `status` ('success' carries `data`,
 * 'error' carries `error`). API errors are returned, not thrown; only a
 * network failure rejects.
 */
export function createGiftCardClient(options: GiftCardClientOptions) {
  const base = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;

  async function call<T>(method: string, path: string, body?: unknown, post?: PostOptions): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${options.apiKey}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (post?.idempotencyKey !== undefined) headers['idempotency-key'] = post.idempotencyKey;
    const res = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
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
    createCard: (input: CreateCardInput, opts?: PostOptions) => call<GiftCard>('POST', '/card', input, opts),
    /** Up to 1,000 cards in one call; each result is the card or the error POST /card would have answered, in order. */
    createCardsBatch: (cards: CreateCardInput[], opts?: PostOptions) => call<CardBatchResults>('POST', '/card/batch', { cards }, opts),
    listCards: (query?: ListCardsQuery) => call<CardPage>('GET', `/card${queryString({ ...query })}`),
    getCard: (cardNumber: string) => call<GiftCard>('GET', `/card/${segment(cardNumber)}`),
    setCardStatus: (cardNumber: string, status: 'enable' | 'disable') => call<GiftCard>('PATCH', `/card/${segment(cardNumber)}`, { status }),
    cancelCard: (cardNumber: string) => call<null>('DELETE', `/card/${segment(cardNumber)}`),
    /** Spends amount of the card at your business (a till); the answer holds the card's balance after. */
    redeemCard: (cardNumber: string, input: RedeemCardInput, opts?: PostOptions) =>
      call<Redemption>('POST', `/card/${segment(cardNumber)}/redemptions`, input, opts),
    /** Sets amount of the card aside for a till until captured, voided or expired. */
    placeHold: (cardNumber: string, input: PlaceHoldInput, opts?: PostOptions) => call<Hold>('POST', `/card/${segment(cardNumber)}/holds`, input, opts),
    listCardHolds: (cardNumber: string, query?: PageQuery) => call<HoldPage>('GET', `/card/${segment(cardNumber)}/holds${queryString({ ...query })}`),
    getHold: (holdReference: string) => call<Hold>('GET', `/card/holds/${segment(holdReference)}`),
    /** Redeems the hold; without an amount, the whole of it. The rest goes back to the card. */
    captureHold: (holdReference: string, input: CaptureHoldInput = {}, opts?: PostOptions) =>
      call<Hold>('POST', `/card/holds/${segment(holdReference)}/capture`, input, opts),
    voidHold: (holdReference: string, opts?: PostOptions) => call<Hold>('POST', `/card/holds/${segment(holdReference)}/void`, {}, opts),

    createPayout: (input: CreatePayoutInput, opts?: PostOptions) => call<PayoutCreated>('POST', '/card/payouts', input, opts),
    /** Up to 100 payouts made in order, as if sent one after another; each result is the payout or its error, in order. */
    createPayoutsBatch: (payouts: CreatePayoutInput[], opts?: PostOptions) => call<PayoutBatchResults>('POST', '/card/payouts/batch', { payouts }, opts),
    listPayouts: (query?: PageQuery) => call<PayoutPage>('GET', `/card/payouts${queryString({ ...query })}`),
    getPayoutStatus: (reference: string) => call<PayoutStatus>('GET', `/card/payout/${segment(reference)}/status`),
    createTransfer: (input: CreateTransferInput, opts?: PostOptions) => call<TransferCreated>('POST', '/transfers', input, opts),
    listBanks: () => call<Bank[]>('GET', '/banks'),

    createPayment: (input: CreatePaymentInput, opts?: PostOptions) => call<PaymentCreated>('POST', '/card/payments', input, opts),
    listPayments: (query?: PageQuery) => call<PaymentPage>('GET', `/card/payments${queryString({ ...query })}`),
    getPaymentStatus: (linkReference: string) => call<PaymentRecord>('GET', `/card/payment/${segment(linkReference)}/status`),
    /** Live direct charges whose next_action is otp: sends the customer's one-time code. */
    authorizePayment: (linkReference: string, otp: string, opts?: PostOptions) =>
      call<PaymentRecord>('POST', `/card/payment/${segment(linkReference)}/authorize`, { otp }, opts),
    /** Refunds a paid top-up; without an amount, what is left of it. */
    refundPayment: (linkReference: string, input: RefundPaymentInput = {}, opts?: PostOptions) =>
      call<Refund>('POST', `/card/payments/${segment(linkReference)}/refund`, input, opts),

    listEvents: (query?: ListEventsQuery) => call<EventPage>('GET', `/events${queryString({ ...query })}`),

    /** Test keys only: plays the bank's status update for a pending bank payout or transfer. */
    settlePayout: (reference: string, status: 'success' | 'failed', opts?: PostOptions) =>
      call<PayoutStatus>('POST', `/test-helpers/payouts/${segment(reference)}/settle`, { status }, opts),
    /** Test keys only: plays the processor for a pending payment. */
    completePayment: (linkReference: string, status: 'success' | 'failed' | 'cancelled', opts?: PostOptions) =>
      call<PaymentRecord>('POST', `/test-helpers/payments/${segment(linkReference)}/complete`, { status }, opts),
  };
}

export type GiftCardClient = ReturnType<typeof createGiftCardClient>;
