import type { ChapaFake } from './core';
import { registerPaymentRoutes } from './payments';
import { registerRefundRoutes } from './refunds';
import { registerTransferRoutes } from './transfers';

/**
 * Every route module of the fake. A module is a function that calls
 * fake.route(...) for each Chapa operation it plays; add yours here
 * (transfers.ts: banks, transfers, transfers/verify, balances, approval calls).
 */
export const ROUTE_MODULES: ((fake: ChapaFake) => void)[] = [registerPaymentRoutes, registerTransferRoutes, registerRefundRoutes];
