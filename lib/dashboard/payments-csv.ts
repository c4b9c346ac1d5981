import type { DbOrTx } from '../db/client';
import type { Payment } from '../payments/payment-view';
import type { Mode } from '../validation';
import { csvFile, csvTable, moneyColumns, recordTimeColumns, type CsvColumn } from '../csv';
import { paymentNet } from './net-amount';
import { paymentBatches, type PaymentFilters } from './search-payments';

/**
 * The payments export of a business in its zone, amounts in currency units
 * and in minor units. The customer paid amount + fee; net is what the card
 * received (lib/dashboard/net-amount.ts).
 */
function paymentCsv(timeZone: string) {
  const columns: CsvColumn<Payment>[] = [
    { header: 'reference', value: (p) => p.linkReference },
    { header: 'merchant_reference', value: (p) => p.merchantReference },
    { header: 'provider_reference', value: (p) => p.providerReference },
    { header: 'type', value: (p) => p.type },
    { header: 'status', value: (p) => p.status },
    { header: 'currency', value: (p) => p.currency },
    ...moneyColumns<Payment>((p) => ({ amount: p.amount, fee: p.serviceFee, net: paymentNet(p) })),
    { header: 'payment_method', value: (p) => p.paymentMethod },
    { header: 'card_number', value: (p) => p.cardNumber },
    { header: 'failure_reason', value: (p) => p.failureReason },
    ...recordTimeColumns<Payment>(timeZone),
  ];
  return csvTable(columns);
}

export interface PaymentCsvFileOptions {
  businessId: number;
  mode: Mode;
  timeZone: string;
  filters: PaymentFilters;
}

/** The header and the lines of the filtered payments, a keyset batch per chunk: never the whole set in memory. */
export function paymentCsvFile(db: DbOrTx, opts: PaymentCsvFileOptions) {
  return csvFile(paymentCsv(opts.timeZone), paymentBatches(db, opts, 1000));
}
