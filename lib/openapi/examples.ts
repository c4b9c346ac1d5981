import type {
  CardBatchResults,
  PayoutBatchResults,
  Bank,
  B2BPayoutCreated,
  BankPayoutCreated,
  CardPage,
  CardToCardPayoutCreated,
  EventItem,
  GiftCard,
  Hold,
  HoldEvent,
  HoldPage,
  PaymentCreated,
  PaymentEvent,
  PaymentPage,
  PaymentRecord,
  PayoutEvent,
  RefundEvent,
  PayoutPage,
  Redemption,
  RedemptionEvent,
  ExpiryEvent,
  PayoutStatus,
  Refund,
  TransferCreated,
} from './response-schemas';

/** Example answers for the document and the reference page; tests check each against its schema. */

const created = '2025-06-01T09:30:00.000Z';
const updated = '2025-06-01T09:30:02.512Z';

export const giftCardExample: GiftCard = {
  ref_id: '6f1c2a34-9b7e-4f1e-a1d2-6c1b9f0e8a71',
  name: 'Abebe Kebede',
  card_number: '4921583047261138',
  currency: 'ETB',
  status: 1,
  last_four: '1138',
  is_scoped: 1,
  business_id: 42,
  available_amount: 150000,
  held_amount: 0,
  created_at: created,
  updated_at: created,
  expires_at: null,
};

export const cardPageExample: CardPage = { items: [giftCardExample], page: 1, pages: 1, size: 15, total: 1 };

export const b2bCreatedExample: B2BPayoutCreated = { provider_reference: 'b2b_7Jq2xVb9LkP3sT8a', status: 'SUCCESS', created_at: created, updated_at: created };

export const cardToCardCreatedExample: CardToCardPayoutCreated = {
  initiator_reference: 'c2c_Hn4v0QwE2rYd8KzM',
  source_card_number: '4921583047261138',
  destination_card_number: '5104920038817265',
  amount: 5000,
  service_fee: 50,
  charge_payer: 'sender',
  currency: 'ETB',
};

export const bankCreatedExample: BankPayoutCreated = { provider_reference: 'bnk_Pq8sW2nX4cV7bR1e', status: 'PENDING' };

export const transferCreatedExample: TransferCreated = {
  provider_reference: 'trf_Lm3kD9fG1hJ6aS2q',
  status: 'PENDING',
  created_at: created,
  updated_at: created,
};

export const payoutPageExample: PayoutPage = {
  items: [
    {
      payout_type: 'card_to_card',
      status: 'success',
      currency: 'ETB',
      amount: 5000,
      service_fee: 50,
      initiator_reference: 'c2c_Hn4v0QwE2rYd8KzM',
      source_card_number: '4921583047261138',
      destination_card_number: '5104920038817265',
      mode: 'test',
      created_at: created,
      updated_at: created,
    },
  ],
  total: 1,
  page: 1,
  limit: 15,
  pages: 1,
};

export const payoutStatusExample: PayoutStatus = {
  reference: 'bnk_Pq8sW2nX4cV7bR1e',
  provider_ref: 'bnk_Pq8sW2nX4cV7bR1e',
  amount: 20000,
  service_fee: 0,
  currency: 'ETB',
  status: 'success',
  created_at: created,
  completed_at: updated,
};

export const paymentCreatedExample: PaymentCreated = {
  link_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  status: 'PENDING',
  amount: 10000,
  service_fee: 160,
  currency: 'ETB',
  card_number: '4921583047261138',
  merchant_reference: 'order-1042',
  checkout_url: 'http://localhost:3000/checkout/pay_Zx7cV2bN9mQ4wE1r',
};

export const paymentRecordExample: PaymentRecord = {
  link_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  merchant_reference: 'order-1042',
  status: 'success',
  currency: 'ETB',
  amount: 10000,
  service_fee: 160,
  card_number: '4921583047261138',
  refunded_amount: 0,
  mode: 'test',
  created_at: created,
  updated_at: updated,
};

export const refundExample: Refund = {
  refund_reference: 'rfd_4Kq9sT2vB7xN1mC8pL3dF6hJ',
  link_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  status: 'succeeded',
  currency: 'ETB',
  amount: 2500,
  reason: 'Order 1005 returned',
  refunded_amount: 2500,
  refundable_amount: 7500,
  mode: 'test',
  created_at: updated,
  updated_at: updated,
  completed_at: updated,
};

export const paymentPageExample: PaymentPage = { items: [paymentRecordExample], total: 1, page: 1, limit: 15, pages: 1 };

export const banksExample: Bank[] = [
  { slug: 'cbe', name: 'Commercial Bank of Ethiopia', type: 'bank', currencies: ['ETB'] },
  { slug: 'telebirr', name: 'telebirr', type: 'wallet', currencies: ['ETB'] },
];

export const paymentEventExample: PaymentEvent = {
  event: 'payment.success',
  status: 'success',
  mode: 'test',
  payment_type: 'link',
  currency: 'ETB',
  amount: 10000,
  service_fee: 160,
  merchant_reference: 'order-1042',
  service_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: created,
  updated_at: updated,
};

export const refundEventExample: RefundEvent = {
  event: 'payment.refunded',
  status: 'refunded',
  mode: 'test',
  payment_type: 'link',
  currency: 'ETB',
  amount: 2500,
  refund_reference: 'rfd_4Kq9sT2vB7xN1mC8pL3dF6hJ',
  refunded_amount: 2500,
  payment_amount: 10000,
  reason: 'Order 1005 returned',
  merchant_reference: 'order-1042',
  service_reference: 'pay_Zx7cV2bN9mQ4wE1r',
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: updated,
  updated_at: updated,
};

export const payoutEventExamples: Record<'card_to_card' | 'bank' | 'b2b', PayoutEvent> = {
  card_to_card: {
    event: 'payout.success',
    status: 'success',
    mode: 'test',
    payout_type: 'card_to_card',
    currency: 'ETB',
    amount: 5000,
    initiator_reference: 'c2c_Hn4v0QwE2rYd8KzM',
    customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
    meta: { source_card_number: '4921583047261138', destination_card_number: '5104920038817265' },
    created_at: created,
    updated_at: created,
  },
  bank: {
    event: 'payout.failed',
    status: 'failed',
    mode: 'test',
    payout_type: 'bank',
    currency: 'ETB',
    amount: 20000,
    provider_reference: 'bnk_Pq8sW2nX4cV7bR1e',
    customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
    meta: { source_card_number: '4921583047261138', bank_slug: 'cbe', account_number: '1000123450000', account_name: 'Abebe Kebede' },
    created_at: created,
    updated_at: updated,
  },
  b2b: {
    event: 'payout.success',
    status: 'success',
    mode: 'test',
    payout_type: 'b2b',
    currency: 'ETB',
    amount: 7500,
    provider_reference: 'b2b_7Jq2xVb9LkP3sT8a',
    customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
    meta: { source_card_number: '4921583047261138', merchant_id: 'mer_Q2w3E4r5T6y7U8i9' },
    created_at: created,
    updated_at: created,
  },
};

export const eventItemExample: EventItem = {
  id: 'msg_3Fh8Kd0Lq2Zx9Vb7Nm1cR4tY',
  type: 'payment.success',
  created_at: updated,
  payload: paymentEventExample,
  delivery: { state: 'delivered', attempts: 1, last_attempt_at: updated, delivered_at: updated },
};

export const redemptionExample: Redemption = {
  reference: 'rdm_8Hw2kQ5tR9vL3xN7bM1cZ4pD',
  card_number: '4000123412341234',
  currency: 'ETB',
  amount: 2550,
  fee: 0,
  net_amount: 2550,
  merchant_reference: 'till-7 receipt 0042',
  available_amount: 7450,
  held_amount: 0,
  created_at: updated,
};

export const expiryEventExample: ExpiryEvent = {
  event: 'card.expired',
  status: 'success',
  mode: 'test',
  currency: 'ETB',
  amount: 7450,
  card_number: '4000123412341234',
  available_amount: 0,
  expires_at: '2026-06-01T20:59:59.999Z',
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: '2026-06-01T21:00:12.031Z',
  updated_at: '2026-06-01T21:00:12.031Z',
};

export const redemptionEventExample: RedemptionEvent = {
  event: 'card.redeemed',
  status: 'success',
  mode: 'test',
  currency: 'ETB',
  amount: 2550,
  fee: 0,
  net_amount: 2550,
  reference: 'rdm_8Hw2kQ5tR9vL3xN7bM1cZ4pD',
  merchant_reference: 'till-7 receipt 0042',
  card_number: '4000123412341234',
  available_amount: 7450,
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: updated,
  updated_at: updated,
};

export const holdExample: Hold = {
  hold_reference: 'hld_3Tq9wE6rY1uI8oP2aS5dF7gH',
  status: 'held',
  card_number: '4000123412341234',
  currency: 'ETB',
  amount: 5000,
  captured_amount: 0,
  fee: 0,
  merchant_reference: 'pump 4',
  expires_at: '2025-06-08T09:30:02.512Z',
  created_at: updated,
};

export const capturedHoldExample: Hold = {
  ...holdExample,
  status: 'captured',
  captured_amount: 3750,
  ended_at: '2025-06-01T09:41:17.030Z',
};

export const voidedHoldExample: Hold = { ...holdExample, status: 'voided', ended_at: '2025-06-01T09:41:17.030Z' };

export const holdPageExample: HoldPage = { items: [capturedHoldExample], total: 1, page: 1, limit: 15, pages: 1 };

export const holdEventExample: HoldEvent = {
  event: 'hold.captured',
  status: 'captured',
  mode: 'test',
  currency: 'ETB',
  amount: 5000,
  captured_amount: 3750,
  fee: 0,
  hold_reference: 'hld_3Tq9wE6rY1uI8oP2aS5dF7gH',
  merchant_reference: 'pump 4',
  card_number: '4000123412341234',
  available_amount: 6250,
  expires_at: '2025-06-08T09:30:02.512Z',
  customer: { first_name: 'Abebe', last_name: 'Kebede', phone_number: '+251911234567' },
  created_at: updated,
  updated_at: '2025-06-01T09:41:17.030Z',
};

export const cardBatchExample: CardBatchResults = {
  results: [giftCardExample, { status: 'error', message: 'Gift card already exists', error: 'This customer already has a ETB gift card with this business.' }],
};

export const payoutBatchExample: PayoutBatchResults = {
  results: [
    cardToCardCreatedExample,
    { status: 'error', message: 'Insufficient balance', error: 'The source card does not hold enough funds for this payout and its fee.' },
  ],
};
