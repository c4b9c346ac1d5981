import { cardContracts as cards } from './cards';
import type { Contract } from './contract';
import { eventContracts as events } from './events';
import { holdContracts as holds } from './holds';
import { locationContracts as locations } from './locations';
import { paymentContracts as payments } from './payments';
import { payoutContracts as payouts } from './payouts';
import { shopContracts as shop } from './shop';

/** The contracts by operationId, with their literal types: what the typed client is typed from. */
export type ApiContracts = typeof cards & typeof payouts & typeof payments & typeof holds & typeof events & typeof locations & typeof shop;

/** Every operation of `/api/v1` that takes an API key, in the order the OpenAPI document and the reference page show them. */
export const API_CONTRACTS: readonly Contract[] = [
  cards.createCard,
  cards.createCardsBatch,
  cards.listCards,
  cards.getCard,
  cards.setCardStatus,
  cards.cancelCard,
  payouts.createPayout,
  payouts.createPayoutsBatch,
  payouts.listPayouts,
  payouts.getPayoutStatus,
  payouts.createTransfer,
  payouts.listBanks,
  payments.createPayment,
  payments.listPayments,
  payments.getPaymentStatus,
  payments.authorizePayment,
  payments.refundPayment,
  cards.redeemCard,
  cards.confirmSpend,
  cards.shareCard,
  cards.listCardMessages,
  holds.placeHold,
  holds.listCardHolds,
  holds.getHold,
  holds.captureHold,
  holds.voidHold,
  locations.createLocation,
  locations.listLocations,
  events.listEvents,
  shop.listShopOrders,
  payouts.settlePayout,
  payments.completePayment,
];

/** Every contract the resources declare: tests/rules/route-contracts.test.ts holds API_CONTRACTS and the route files to it. */
export const DECLARED_CONTRACTS: readonly Contract[] = [cards, payouts, payments, holds, events, locations, shop].flatMap((resource) =>
  Object.values<Contract>(resource),
);
